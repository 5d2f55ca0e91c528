"""torchrun, 2 gloo ranks: after the first barrier, rank 0 (alone) validates the checkpoint directory and raises;
rank 1 waits in the next all_reduce until torchrun ends it."""

import torch
import torch.distributed as dist


def check_outdir(path: str) -> None:
    if not path.startswith("/"):
        raise ValueError(f"output dir must be absolute, got {path!r}")


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    dist.barrier()
    if rank == 0:
        check_outdir("runs/exp1")
    t = torch.ones(2)
    dist.all_reduce(t)
    dist.destroy_process_group()
