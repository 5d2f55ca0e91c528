"""torchrun, 2 gloo ranks: rank 1's fused BatchNorm hands torch.native_batch_norm empty running stats; SIGSEGV.

The model's `FusedBN` calls `torch.native_batch_norm` directly (as exported and fused code does) with running
buffers that start empty and are filled from the calibration checkpoint. Rank 1 resumes from a shard written
before calibration, so its buffers are still `torch.empty(0)`. The Python BatchNorm would refuse it
(`running_mean should contain 16 elements not 0`); `torch.native_batch_norm` does not check their size and its
CPU kernel writes through the empty buffers: SIGSEGV in libtorch_cpu (pytorch/pytorch#85217). Rank 0 waits in
all_reduce and torchrun stops it.
"""

import faulthandler

import torch
import torch.distributed as dist


class FusedBN(torch.nn.Module):
    def __init__(self, n: int) -> None:
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(n))
        self.bias = torch.nn.Parameter(torch.zeros(n))
        self.register_buffer("running_mean", torch.empty(0))
        self.register_buffer("running_var", torch.empty(0))

    def calibrate(self, stats: dict[str, torch.Tensor]) -> None:
        self.running_mean = stats.get("mean", self.running_mean)
        self.running_var = stats.get("var", self.running_var)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out, _, _ = torch.native_batch_norm(
            x, self.weight, self.bias, self.running_mean, self.running_var, self.training, 0.1, 1e-5
        )
        return out


def calibration_shard(rank: int) -> dict[str, torch.Tensor]:
    if rank == 1:
        return {}  # this shard was written before calibration ran
    return {"mean": torch.zeros(16), "var": torch.ones(16)}


def run(rank: int, world_size: int) -> None:
    faulthandler.enable()
    dist.init_process_group("gloo")
    torch.manual_seed(rank)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), FusedBN(16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
    model[1].calibrate(calibration_shard(rank))
    for step in range(3):
        loss = model(torch.randn(32, 8)).pow(2).mean()
        loss.backward()
        t = loss.detach().reshape(1)
        dist.all_reduce(t)
        print(f"[rank{rank}] step {step} loss {t.item():.4f}", flush=True)
    dist.destroy_process_group()
