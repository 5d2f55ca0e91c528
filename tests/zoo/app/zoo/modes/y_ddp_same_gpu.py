"""torchrun, 2 ranks, NCCL: every rank calls torch.cuda.set_device(0) (a default never read from LOCAL_RANK),
so both ranks sit on one GPU and NCCL refuses the communicator (Intellindust-AI-Lab/DEIM#113,
NVIDIA/Megatron-LM#661: "Duplicate GPU detected : rank 1 and rank 0 both on CUDA device")."""

from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

from zoo.data import quiet_torch

GPU = 0  # the bug: meant to be int(os.environ["LOCAL_RANK"])


def run(rank: int, world_size: int) -> None:
    quiet_torch()
    torch.cuda.set_device(GPU)
    dist.init_process_group("nccl", timeout=timedelta(seconds=20))
    model = DistributedDataParallel(torch.nn.Linear(16, 4).cuda(), device_ids=[GPU])
    x = torch.randn(8, 16, device="cuda")
    model(x).sum().backward()
    print(f"rank {rank} step done")
    dist.destroy_process_group()
