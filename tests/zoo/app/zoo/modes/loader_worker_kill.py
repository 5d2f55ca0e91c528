"""A DataLoader worker killed by SIGKILL (what the kernel's OOM killer does to the biggest worker)."""

import os
import signal

from torch.utils.data import DataLoader

from zoo.data import Samples, quiet_torch


def load_image(i: int) -> None:
    if i == 3:
        os.kill(os.getpid(), signal.SIGKILL)


def main() -> None:
    quiet_torch()
    for _batch in DataLoader(Samples(fault=load_image), batch_size=2, num_workers=1):
        pass
