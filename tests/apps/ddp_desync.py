"""Ranks that disagree on the next collective: at the end of an epoch rank 1 takes a branch of its own and
waits in `barrier`, while rank 0 all-reduces its metrics. The group's collectives time out after 4 s (a group
of its own: the ranks' start-up keeps the default group's 30 minutes).

    torchrun --nproc_per_node=2 ddp_desync.py

The truth, from running it alone (torch 2.13 CPU, Python 3.11, this 2-core box): exit status 1 after about
7 s; both ranks raise gloo's `RuntimeError: [...unbound_buffer.cc:78] Timed out waiting 4000ms for recv
operation to complete`, rank 1 in `barrier` at ddp_desync.py:22 in end_of_epoch, rank 0 in `all_reduce` at
ddp_desync.py:24 in end_of_epoch, either first; torchrun lists both, and its root cause is either.
"""

import datetime

import torch
import torch.distributed as dist


def end_of_epoch(rank: int, group, loss: torch.Tensor) -> None:
    if rank == 1 and loss.item() > 0:
        # rank 1 only: its early stopping check, which the other rank never makes
        dist.barrier(group=group)
    else:
        dist.all_reduce(loss, group=group)  # the epoch's mean loss


def main() -> None:
    dist.init_process_group("gloo")
    group = dist.new_group(timeout=datetime.timedelta(seconds=4))
    end_of_epoch(dist.get_rank(), group, torch.ones(1))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
