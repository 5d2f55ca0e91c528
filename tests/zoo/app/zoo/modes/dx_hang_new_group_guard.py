"""torchrun, 2 gloo ranks: a subgroup for logging is created with `dist.new_group([0, 1])` under an
`if rank == 0` guard; rank 1 never calls new_group and goes on to the epoch's all_reduce. The program sets no
timeout (the default 30 minutes)."""

import torch
import torch.distributed as dist


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    loss = torch.tensor([float(rank + 1)])
    if rank == 0:
        print("rank 0: creating the logging group", flush=True)
        log_group = dist.new_group([0, 1])
        dist.all_reduce(loss, group=log_group)
    dist.all_reduce(loss)
    print(f"rank {rank}: epoch loss {loss.item()}", flush=True)
    dist.destroy_process_group()
