"""torchrun, 2 gloo ranks: floating-point traps enabled to catch the first NaN; rank 1's 0/0 dies by SIGFPE.

To find where NaNs come from, each rank enables the C library's FE_INVALID and FE_DIVBYZERO traps after
setting up its process group (feenableexcept), as numerical codes do. Rank 1's shard has a constant feature, so
its standardisation divides 0 by a zero standard deviation: the trap raises SIGFPE inside torch's division, in
rank 1's main thread. Rank 0 waits in all_reduce.
"""

import ctypes
import faulthandler

import torch
import torch.distributed as dist

FE_DIVBYZERO, FE_INVALID = 0x04, 0x01


def trap_nans() -> None:
    ctypes.CDLL("libm.so.6").feenableexcept(FE_INVALID | FE_DIVBYZERO)


def standardise(x: torch.Tensor) -> torch.Tensor:
    return (x - x.mean(0)) / x.std(0)


def run(rank: int, world_size: int) -> None:
    faulthandler.enable()
    dist.init_process_group("gloo")
    model = torch.nn.Linear(4, 1)
    g = torch.Generator().manual_seed(rank)
    shard = torch.randn(64, 4, generator=g)
    if rank == 1:
        shard[:, 2] = 1.0  # a sensor stuck at one value on this rank's shard
    trap_nans()
    for step in range(4):
        x = standardise(shard[step * 16 : (step + 1) * 16])
        loss = model(x).pow(2).mean()
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
