"""A memory check of the program's: tracemalloc snapshots around each epoch; the first epoch's check stops tracing
(to spare the overhead) and the second epoch's snapshot is then taken with tracing off."""

import tracemalloc

import torch


class MemCheck:
    def __init__(self) -> None:
        tracemalloc.start()
        self.before = tracemalloc.take_snapshot()

    def report(self, epoch: int) -> None:
        after = tracemalloc.take_snapshot()
        top = after.compare_to(self.before, "lineno")[:3]
        print(f"epoch {epoch} top growth:", *(str(s) for s in top), sep="\n  ", flush=True)
        self.before = after
        if epoch == 0:
            tracemalloc.stop()


def main() -> None:
    check = MemCheck()
    model = torch.nn.Linear(64, 64)
    cache = []
    for epoch in range(2):
        for _ in range(20):
            x = torch.randn(32, 64)
            cache.append(model(x).detach())
        check.report(epoch)
