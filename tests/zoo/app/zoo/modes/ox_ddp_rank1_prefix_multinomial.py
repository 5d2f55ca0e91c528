"""torchrun, 2 gloo ranks, each rank's log prefixed `[rankN] time LEVEL |` on every line: hard-negative
sampling draws 8 negatives per anchor without replacement from the rank's candidate pool; rank 1's shard has
only 5 candidates. Rank 1 logs the exception and re-raises; rank 0 waits in the next all_reduce."""

import logging
import sys
from datetime import timedelta

import torch
import torch.distributed as dist


def logger(rank: int) -> logging.Logger:
    class Prefixed(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            prefix = f"[rank{rank}] {self.formatTime(record, '%H:%M:%S')} {record.levelname} | "
            return "\n".join(prefix + line for line in super().format(record).split("\n"))

    h = logging.StreamHandler(sys.stderr)
    h.setFormatter(Prefixed("%(message)s"))
    log = logging.getLogger(f"train.rank{rank}")
    log.addHandler(h)
    log.setLevel(logging.INFO)
    return log


def negatives(scores: torch.Tensor, k: int) -> torch.Tensor:
    return torch.multinomial(scores.softmax(dim=1), num_samples=k, replacement=False)


def run(rank: int, world_size: int) -> None:
    log = logger(rank)
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    pool = 12 if rank == 0 else 5
    g = torch.Generator().manual_seed(rank)
    model = torch.nn.Linear(16, 16)
    for step in range(3):
        anchors = torch.randn(4, 16, generator=g)
        cands = torch.randn(pool, 16, generator=g)
        try:
            idx = negatives(model(anchors) @ cands.T, k=8)
        except Exception:
            log.exception("negative sampling failed at step %d", step)
            raise
        loss = torch.tensor(float(idx.float().mean()))
        dist.all_reduce(loss)
        log.info("step %d loss %.3f", step, loss.item())
    dist.destroy_process_group()
