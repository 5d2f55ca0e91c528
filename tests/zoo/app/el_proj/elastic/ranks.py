"""What each rank runs: a tiny linear model trained with gloo all_reduce, resumable from a checkpoint."""

import io
import os
import queue
import signal
import threading

import torch
import torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record

from elastic.attempts import attempt


def setup() -> tuple[int, int]:
    dist.init_process_group("gloo")
    return dist.get_rank(), dist.get_world_size()


def step(model: torch.nn.Linear, x: torch.Tensor) -> float:
    loss = model(x).pow(2).mean()
    loss.backward()
    for p in model.parameters():
        dist.all_reduce(p.grad)
        p.data.add_(p.grad, alpha=-0.01)
        p.grad = None
    return loss.item()


def save_watched(state: dict, path: str) -> None:
    """Save in chunks under the job's memory watchdog (it kills the rank when its budget is spent)."""
    buf = io.BytesIO()
    torch.save(state, buf)
    data = buf.getvalue()
    with open(path, "wb") as f:
        f.write(data[: len(data) // 2])
        f.flush()
        print(f"[rank0] attempt {attempt()}: memory watchdog: over budget while saving", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
        f.write(data[len(data) // 2 :])


@record
def resume_rank(workdir: str) -> None:
    rank = int(os.environ["RANK"])
    model = torch.nn.Linear(8, 1)
    path = os.path.join(workdir, "last.pt")
    start = 0
    if os.path.exists(path):
        print(f"[rank{rank}] attempt {attempt()}: resuming from {path}", flush=True)
        state = torch.load(path)
        model.load_state_dict(state["model"])
        start = state["step"]
    setup()
    for i in range(start, 6):
        step(model, torch.randn(4, 8))
        if i == 2 and rank == 0:
            save_watched({"model": model.state_dict(), "step": i + 1}, path)
        dist.barrier()
    dist.destroy_process_group()


def shard_of(rank: int) -> list[torch.Tensor]:
    # 10 samples split in contiguous blocks of 8: rank 1 gets 2, rank 0 gets 8 (and one pass each)
    samples = [torch.full((8,), float(i)) for i in range(10)]
    return samples[8:] if rank == 1 else samples[:8]


def early_rank(_: str) -> None:
    rank, _ = setup()
    model = torch.nn.Linear(8, 1)
    done = 0
    for x in shard_of(rank):
        step(model, x.unsqueeze(0))
        done += 1
    print(f"[rank{rank}] shard done after {done} steps", flush=True)


def prefetch(out: queue.Queue, rows: list[dict]) -> None:
    for row in rows:
        out.put(torch.tensor(row["ids"], dtype=torch.float32))


def thread_rank(_: str) -> None:
    rank, _ = setup()
    rows = [{"ids": [float(i)] * 8} for i in range(4)]
    if rank == 0:
        rows[2] = {"idx": [2.0] * 8}  # a record from the older exporter
    q: queue.Queue = queue.Queue(maxsize=1)
    threading.Thread(target=prefetch, args=(q, rows), name="prefetch", daemon=True).start()
    model = torch.nn.Linear(8, 1)
    for i in range(len(rows)):
        x = q.get(timeout=3)
        step(model, x.unsqueeze(0))
        print(f"[rank{rank}] step {i}", flush=True)
    dist.destroy_process_group()
