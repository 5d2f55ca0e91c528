"""torchrun, 2 gloo ranks: each rank holds itself to the job's CPU budget per rank (RLIMIT_CPU, soft, 2 s past
what the start took, as `ulimit -S -t` in a job script); rank 1's shard has the long documents, its steps take
far more CPU, the kernel sends it SIGXCPU while rank 0 waits in the gradient all-reduce."""

import math
import resource
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def cap_cpu(extra_s: int) -> None:
    r = resource.getrusage(resource.RUSAGE_SELF)
    soft = math.ceil(r.ru_utime + r.ru_stime) + extra_s
    resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 30))


def shard(rank: int) -> list[torch.Tensor]:
    g = torch.Generator().manual_seed(rank)
    length = 4096 if rank == 1 else 16
    return [torch.randn(length, 256, generator=g) for _ in range(40)]


def run(rank: int, world_size: int) -> None:
    torch.set_num_threads(1)
    dist.init_process_group("gloo", timeout=timedelta(seconds=60))
    cap_cpu(2)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(256, 1024), torch.nn.GELU(), torch.nn.Linear(1024, 256)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step, x in enumerate(shard(rank)):
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if rank == 0:
            print(f"step {step} done", flush=True)
    dist.destroy_process_group()
