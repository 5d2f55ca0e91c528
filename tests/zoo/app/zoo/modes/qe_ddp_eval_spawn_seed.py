"""torchrun, 2 gloo ranks: a worker_init_fn that reads the rank meets rank 0's spawn evaluation loader.

The project seeds each DataLoader worker from its rank (`dist.get_rank()` in worker_init_fn), which works in
the training loader's fork workers: they copy the initialised process group's Python state. Rank 0 alone
evaluates after the first epoch, with spawn workers (the evaluation's video decoder is not fork-safe). A
spawned worker starts a fresh interpreter with no process group: `dist.get_rank()` raises there, and rank 0
reports `Caught ValueError in DataLoader worker process 0`. Rank 1 waits at the barrier after evaluation.
"""

import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, TensorDataset


def seed_worker(worker_id: int) -> None:
    torch.manual_seed(torch.initial_seed() % 2**31 + dist.get_rank())


def loader(multiprocessing_context: str) -> DataLoader:
    x = torch.randn(32, 4, generator=torch.Generator().manual_seed(0))
    return DataLoader(
        TensorDataset(x, x.sum(1, keepdim=True)),
        batch_size=8,
        num_workers=1,
        worker_init_fn=seed_worker,
        multiprocessing_context=multiprocessing_context,
    )


def evaluate(model: torch.nn.Module) -> float:
    with torch.no_grad():
        losses = [torch.nn.functional.mse_loss(model(x), y) for x, y in loader("spawn")]
    return torch.stack(losses).mean().item()


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step, (x, y) in enumerate(loader("fork")):
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)
    if rank == 0:
        print(f"[rank0] eval loss {evaluate(model.module):.4f}", flush=True)
    dist.barrier()
    dist.destroy_process_group()
