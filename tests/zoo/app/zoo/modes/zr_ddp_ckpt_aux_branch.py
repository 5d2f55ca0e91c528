"""torchrun, 2 gloo ranks: DDP with find_unused_parameters=True, and an auxiliary branch under reentrant activation
checkpointing that only rank 1 takes (its batches carry the auxiliary target from step 1 on).

DDP marks the branch's parameters unused at forward time (not reached from the output it traced), then the
checkpoint's reentrant backward fires their hooks as well: rank 1's backward raises. Rank 0 waits in the bucket's
all_reduce until rank 1 is gone.
"""

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(4, 4)
        self.aux = nn.Sequential(nn.Linear(4, 4), nn.Tanh())
        self.head = nn.Linear(4, 2)

    def forward(self, x, with_aux: bool):
        h = self.encoder(x)
        if with_aux:
            h = h + checkpoint(self.aux, h, use_reentrant=True)
        return self.head(h)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    model = DDP(Net(), find_unused_parameters=True)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for step in range(5):
        x = torch.randn(8, 4, generator=g)
        has_aux_target = rank == 1 and step >= 1
        loss = model(x, with_aux=has_aux_target).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
