"""A DataLoader worker killed by SIGKILL (the OOM killer's way) while its main waits for the batch; the program
prints only the loader's last words. Run alone (2026-11-30, torch 2.13.0+cpu, 3 runs): exit 1, stderr `training
stopped: DataLoader worker (pid(s) N) exited unexpectedly`: the loader raised that from its SIGCHLD handler's
`is killed by signal: Killed`, and the program printed the last message only."""

import os
import signal
import sys
import time

import torch
from torch.utils.data import DataLoader, Dataset


class Frames(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        if i == 2:
            time.sleep(0.5)  # the main is waiting on the queue by now
            os.kill(os.getpid(), signal.SIGKILL)
        return torch.zeros(4)


def main():
    try:
        for _batch in DataLoader(Frames(), batch_size=2, num_workers=1):
            pass
    except RuntimeError as e:
        print(f"training stopped: {e}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
