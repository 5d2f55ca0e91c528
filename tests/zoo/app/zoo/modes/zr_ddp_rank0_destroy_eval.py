"""torchrun, 2 gloo ranks: an evaluation whose per-batch metric is all_reduced; rank 0's shard has 3 batches and
rank 1's 5 (split by file). Rank 0 leaves the loop, tears its process group down itself (destroy_process_group in
its `finally`) and exits 0 while rank 1 is still all_reducing its fourth batch's metric.
"""

import torch
import torch.distributed as dist


def evaluate(rank: int, model: torch.nn.Module, shard: list) -> float:
    total = torch.zeros(1)
    for i, x in enumerate(shard):
        with torch.no_grad():
            metric = model(x).abs().mean().reshape(1)
        dist.all_reduce(metric)
        total += metric
        print(f"[rank{rank}] eval batch {i} metric {metric.item():.4f}", flush=True)
    return total.item() / len(shard)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    try:
        torch.manual_seed(0)
        model = torch.nn.Linear(4, 2)
        g = torch.Generator().manual_seed(rank)
        shard = [torch.randn(8, 4, generator=g) for _ in range(3 if rank == 0 else 5)]
        score = evaluate(rank, model, shard)
        print(f"[rank{rank}] eval done: {score:.4f}", flush=True)
    finally:
        dist.destroy_process_group()
