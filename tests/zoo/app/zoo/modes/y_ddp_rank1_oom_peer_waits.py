"""torchrun, 2 ranks (gloo, CUDA tensors, one GPU, each capped to a small share of its memory): the data is
sharded by length, so rank 1 gets the long documents; its attention scores do not fit and it dies of CUDA OOM
while rank 0 waits in all_reduce (facebookresearch/fairseq#810, Bluefog-Lib/bluefog#32: one rank dies
of OOM, the others wait in their collective). The group's timeout is short (20 s) so rank 0 does not wait long."""

from datetime import timedelta

import torch
import torch.distributed as dist

from zoo.data import quiet_torch


def attention_scores(q):
    return torch.softmax(q @ q.transpose(-1, -2), dim=-1)  # (batch, seq, seq)


def run(rank: int, world_size: int) -> None:
    quiet_torch()
    torch.cuda.set_device(0)
    torch.cuda.set_per_process_memory_fraction(0.02)  # about 2.8 GiB of an H200 each
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    seq = 512 if rank == 0 else 32768  # the bug: shards by length, rank 1's documents are 64x longer
    q = torch.randn(8, seq, 64, device="cuda")
    loss = attention_scores(q).mean()
    dist.all_reduce(loss)  # rank 0 waits here for rank 1
    print(f"rank {rank} loss {float(loss):.4f}")
    dist.destroy_process_group()
