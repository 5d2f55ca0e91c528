"""torchrun, 2 gloo ranks: on finding an old checkpoint, rank 0 alone asks `resume from it? [y/N]` with input()
(inside `if rank == 0`) and then broadcasts the answer; rank 1 waits in the broadcast. torchrun gives its workers
the job's stdin, empty in a batch job, so rank 0 gets EOF."""

import os
import tempfile
from datetime import timedelta

import torch
import torch.distributed as dist

CKPT = os.path.join(tempfile.gettempdir(), "hd_ddp_resume.pt")


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    if rank == 0:
        torch.save({"step": 3}, CKPT)
    dist.barrier()
    answer = torch.zeros(1)
    if rank == 0 and os.path.exists(CKPT):
        reply = input(f"found {CKPT}: resume from it? [y/N] ")
        answer[0] = float(reply.strip().lower() == "y")
    dist.broadcast(answer, src=0)
    print(f"rank {rank} resume {bool(answer.item())}", flush=True)
    dist.destroy_process_group()
