"""A training loop whose memory grows, or not, by its own keys (key=value):

- cache_preds=true: the main process keeps each step's output, a 1 MiB tensor (262144 float32), in a
  list: its RSS grows 1 MiB a step, a loop that keeps its outputs (or a loss tensor with its graph);
- worker_cache=true: the dataset keeps a copy of every item it makes (ITEM_BYTES, written), in the
  DataLoader's workers: their RSS grows (num_workers=2 and BATCH items a step: 1 MiB a step in all), the
  main process's does not;
- steps: batches drawn from the DataLoader, one pass (default STEPS);
- die_at=N: at step N the process SIGKILLs itself, as the kernel's OOM killer ends a process whose memory
  grew too far (crashmatrix classifies it `crash SIGKILL` where no kernel log says OOM).

The truth, measured alone (`python keeps_outputs.py cache_preds=... worker_cache=...`, /proc/<pid>/statm
at step 20 and at the last step, printed by `report=true`): cache_preds=true adds 1.00 MiB a step to the
main process and nothing to the workers; worker_cache=true adds 0.98 MiB a step to the workers together
and nothing to the main process; with both false neither grows by more than 0.1 MiB in all. Measured with
MALLOC_MMAP_THRESHOLD_=131072, as the test runs it: without it glibc moves a freed 1 MiB block's size class
onto the heap, where the loader's small allocations fragment it, and a healthy main process climbs about
80 MiB over its first 120 steps before it levels off (a real effect, but not the one under test).
die_at=80 with cache_preds=true: killed by SIGKILL at step 80 (the shell says `Killed`, status 137).
"""

import os
import signal
import sys

import torch
from torch.utils.data import DataLoader, Dataset

STEPS = 120
BATCH = 4
ITEM_BYTES = 2**18  # 256 KiB an item: BATCH items a step make 1 MiB
PRED_FLOATS = 262144  # 1 MiB of float32


class Items(Dataset):
    def __init__(self, n: int, keep: bool):
        self.n, self.keep, self.kept = n, keep, []

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        if self.keep:
            self.kept.append(bytes([i % 251]) * ITEM_BYTES)  # written, so resident
        return torch.full((8,), float(i))


def rss_mb(pid) -> float:
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main(args: dict) -> None:
    steps = int(args.get("steps", STEPS))
    kept = []
    loader = DataLoader(
        Items(steps * BATCH, args.get("worker_cache") == "true"),
        batch_size=BATCH,
        num_workers=int(args.get("num_workers", 2)),
    )
    model = torch.nn.Linear(8, 8)
    iterator = iter(loader)
    for step, batch in enumerate(iterator, start=1):
        preds = model(batch).sum() + torch.randn(PRED_FLOATS)
        if args.get("cache_preds") == "true":
            kept.append(preds.detach())
        if step == int(args.get("die_at", 0)):
            os.kill(os.getpid(), signal.SIGKILL)
        if args.get("report") == "true" and step in (20, steps):
            workers = sum(rss_mb(w.pid) for w in getattr(iterator, "_workers", []))
            print(f"step {step}: main {rss_mb('self'):.1f} MiB, workers {workers:.1f} MiB", flush=True)
    print(f"trained {steps} steps, kept {len(kept)} outputs")


if __name__ == "__main__":
    main(dict(arg.split("=", 1) for arg in sys.argv[1:]))
