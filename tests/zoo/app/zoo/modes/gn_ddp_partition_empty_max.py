"""torchrun, 2 gloo ranks: a graph split into 2 partitions by node id, each rank keeping the edges inside its
own partition. Rank 1's nodes are the graph's isolated ones, so its partition has no edges; its
`num_nodes = int(edge_index.max()) + 1` fails on the empty tensor while rank 0 waits in DDP's first
all-reduce."""

from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def partition(rank: int, n: int = 40) -> torch.Tensor:
    half = n // 2
    src = torch.arange(half - 1)
    edge_index = torch.stack([torch.cat([src, src + 1]), torch.cat([src + 1, src])])  # a path on nodes 0..19
    lo, hi = rank * half, (rank + 1) * half
    inside = ((edge_index >= lo) & (edge_index < hi)).all(0)
    return edge_index[:, inside] - lo


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    model = DDP(torch.nn.Linear(8, 8))
    edge_index = partition(rank)
    print(f"rank {rank}: {edge_index.size(1)} edges", flush=True)
    num_nodes = int(edge_index.max()) + 1
    x = torch.randn(num_nodes, 8)
    h = model(x)
    out = torch.zeros_like(h).index_add_(0, edge_index[1], h.index_select(0, edge_index[0]))
    out.pow(2).mean().backward()
    print(f"rank {rank}: step done", flush=True)
    dist.destroy_process_group()
