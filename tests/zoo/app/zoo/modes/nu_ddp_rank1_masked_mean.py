"""torchrun, 2 gloo ranks: a token loss averaged over the unpadded tokens, `(err * mask).sum() / mask.sum()`, NaNs
hunted with anomaly detection. Rank 1's second batch is all padding: 0/0, and its backward raises; rank 0 goes on to
the gradients' all_reduce."""

import torch
import torch.distributed as dist
from torch import nn


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = nn.Linear(8, 1)
    torch.autograd.set_detect_anomaly(True)
    g = torch.Generator().manual_seed(rank)
    for step in range(3):
        x = torch.randn(4, 6, 8, generator=g)
        mask = torch.ones(4, 6)
        if rank == 1 and step == 1:
            mask.zero_()
        err = model(x).squeeze(-1).pow(2)
        loss = (err * mask).sum() / mask.sum()
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
