"""torchrun, 2 gloo ranks: a GAN's discriminator with BatchNorm1d under DDP, each rank reading its own shard
file; rank 1's shard has 33 images, so with batch 16 and drop_last=False its third batch holds one image and
BatchNorm refuses it in training mode, while rank 0 (32 images, 2 batches) waits in the epoch's all_reduce of
the losses."""

from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset


def shard(rank: int) -> TensorDataset:
    g = torch.Generator().manual_seed(rank)
    n = 32 if rank == 0 else 33
    return TensorDataset(torch.randn(n, 64, generator=g))


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    torch.manual_seed(0)
    disc = torch.nn.Sequential(
        torch.nn.Linear(64, 32), torch.nn.BatchNorm1d(32), torch.nn.LeakyReLU(0.2), torch.nn.Linear(32, 1)
    )
    disc = DDP(disc, broadcast_buffers=False)
    opt = torch.optim.Adam(disc.parameters(), lr=2e-4)
    loader = DataLoader(shard(rank), batch_size=16, drop_last=False)
    for epoch in range(2):
        total = torch.zeros(1)
        for (real,) in loader:
            out = disc(real)
            loss = F.binary_cross_entropy_with_logits(out, torch.ones_like(out))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.detach()
        dist.all_reduce(total)
        if rank == 0:
            print(f"epoch {epoch} d_loss {total.item():.4f}", flush=True)
    dist.destroy_process_group()
