"""torchrun, 2 gloo ranks: the classifier head is replaced after DDP wrapped the model, on rank 1 only (its label
file has 3 classes where rank 0's has 2). DDP's reducer still waits for the old head's gradients, which never come on
rank 1; its next forward raises, and rank 0 loses its peer in the backward it was finishing.
"""

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def classes_in_shard(rank: int) -> int:
    return 2 if rank == 0 else 3  # counted from each rank's own label file


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)))
    n = classes_in_shard(rank)
    if n != model.module[2].out_features:
        model.module[2] = nn.Linear(8, n)  # registered after DDP wrapped the model
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for step in range(4):
        x, y = torch.randn(8, 4, generator=g), torch.randint(0, n, (8,), generator=g)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
