"""torchrun, 2 gloo ranks: rank 1's shard holds a clip shorter than the conv kernel; conv1d refuses it first.

The audio encoder's first layer is `Conv1d(8, 16, kernel_size=5)` without padding. Rank 1's shard holds a clip
that the silence trimmer cut to 3 frames; `F.conv1d` raises `Calculated padded input size per channel: (3).
Kernel size: (5). Kernel size can't be greater than actual input size` on rank 1 at its second step; rank 0
waits in all_reduce and torchrun stops it.
"""

import torch
import torch.distributed as dist


def shard(rank: int) -> list[torch.Tensor]:
    g = torch.Generator().manual_seed(rank)
    lengths = [32, 3, 32, 32] if rank == 1 else [32, 32, 32, 32]
    return [torch.randn(2, 8, n, generator=g) for n in lengths]


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    encoder = torch.nn.Sequential(torch.nn.Conv1d(8, 16, kernel_size=5), torch.nn.ReLU(), torch.nn.Conv1d(16, 4, 3))
    for step, clip in enumerate(shard(rank)):
        loss = encoder(clip).mean()
        loss.backward()
        t = loss.detach().reshape(1)
        dist.all_reduce(t)
        print(f"[rank{rank}] step {step} loss {t.item():.4f}", flush=True)
    dist.destroy_process_group()
