"""The cases: each launches 2 gloo ranks through the elastic agent and trains."""

import tempfile

import torch
import torch.distributed as dist

from elastic import ranks
from elastic.attempts import attempt, launch
from elastic.data import loader


def rows_for(rank: int) -> list[dict]:
    rows = [{"tokens": [float(i)] * 8} for i in range(8)]
    if rank == 1:
        rows[5] = {"toks": [5.0] * 8}  # an export with the old field name
    return rows


def worker_rank(_: str) -> None:
    rank, _ = ranks.setup()
    model = torch.nn.Linear(8, 1)
    print(f"[rank{rank}] attempt {attempt()}: training", flush=True)
    for x in loader(rows_for(rank)):
        ranks.step(model, x)
    dist.destroy_process_group()


def resume_half_written() -> None:
    launch(ranks.resume_rank, tempfile.mkdtemp(prefix="el_resume_"), max_restarts=1)


def hang_rank_exits_early() -> None:
    launch(ranks.early_rank, "", max_restarts=0)


def worker_keyerror_rank1() -> None:
    launch(worker_rank, "", max_restarts=0)


def thread_before_rank() -> None:
    launch(ranks.thread_rank, "", max_restarts=0)


CASES = {
    "resume_half_written": resume_half_written,
    "hang_rank_exits_early": hang_rank_exits_early,
    "worker_keyerror_rank1": worker_keyerror_rank1,
    "thread_before_rank": thread_before_rank,
}
