"""torchrun, 2 gloo ranks: rank 0 builds the run's ShardPlan and sends it with dist.broadcast_object_list. The
class is defined only where the planner runs (rank 0's import of this module), so rank 1 cannot unpickle it:
`AttributeError: Can't get attribute 'ShardPlan' on <module ...>`; rank 0 then waits in dist.barrier()."""

import os
from dataclasses import dataclass

import torch.distributed as dist

if os.environ.get("RANK") == "0":  # only the planner needs the class, or so it was thought

    @dataclass
    class ShardPlan:
        shards: list
        seed: int


def make_plan(world_size: int):
    return ShardPlan(shards=[f"part-{i:03d}" for i in range(world_size)], seed=0)  # noqa: F821


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    plan = [make_plan(world_size) if rank == 0 else None]
    dist.broadcast_object_list(plan, src=0)
    print(f"rank {rank} reads {plan[0].shards[rank]}")
    dist.barrier()
    dist.destroy_process_group()
