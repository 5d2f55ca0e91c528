"""torchrun, 2 gloo ranks: rank 0 hands out evaluation shards with `dist.scatter_object_list`; the shard list is
built from the files found, and the filter leaves one shard for two ranks."""

from datetime import timedelta

import torch.distributed as dist

FILES = ["val-000.tar", "val-001.tar.partial"]


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    shards = [f for f in FILES if f.endswith(".tar")] if rank == 0 else None
    if rank == 0:
        print(f"{len(shards)} shards for {world_size} ranks", flush=True)
    mine = [None]
    dist.scatter_object_list(mine, shards, src=0)
    print(f"rank {rank} evaluates {mine[0]}", flush=True)
    dist.destroy_process_group()
