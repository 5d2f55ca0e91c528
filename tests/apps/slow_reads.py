"""A trainer whose items come from memory or, with `source=disk`, each from a slow store (a sleep of READ_MS
stands in for a file read over a network filesystem: the timings hold on a busy 2-core box, and it costs no
CPU). Its loader runs in the main process (num_workers=0, the program's default), so with `source=disk` the
loop waits for every read: input-bound. DataLoader workers would read side by side (`num_workers`, a knob
crashmatrix applies from outside under inject).

Its own keys (key=value): steps (STEPS batches, one pass), source (memory), read_ms (READ_MS). Run alone:

    python tests/apps/slow_reads.py source=disk steps=20
"""

import sys
import time

import torch
from torch.utils.data import DataLoader, Dataset

STEPS = 60
BATCH = 4
READ_MS = 40.0


class Items(Dataset):
    def __init__(self, n: int, read_s: float):
        self.n, self.read_s = n, read_s

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> torch.Tensor:
        if self.read_s:
            time.sleep(self.read_s)  # the read
        return torch.full((64,), float(i % 7))


def main(args: dict) -> None:
    steps = int(args.get("steps", STEPS))
    read_s = float(args.get("read_ms", READ_MS)) / 1000 if args.get("source", "memory") == "disk" else 0.0
    loader = DataLoader(Items(steps * BATCH, read_s), batch_size=BATCH)
    model = torch.nn.Linear(64, 8)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for x in loader:
        loss = model(x).square().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"steps={steps} loss={float(loss):.4f}")


if __name__ == "__main__":
    main(dict(a.split("=", 1) for a in sys.argv[1:]))
