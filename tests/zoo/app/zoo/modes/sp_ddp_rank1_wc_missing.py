"""torchrun, 2 gloo ranks: each rank counts its shard's lines with `wc -l` (subprocess.check_output) to size its
epoch; rank 1's shard was never written (the shard writer made shard 0 only). Rank 1: wc's own message, then
CalledProcessError; rank 0 waits in the all_reduce of the step counts."""

import os
import subprocess
import tempfile

import torch
import torch.distributed as dist


def count_lines(path: str) -> int:
    out = subprocess.check_output(["wc", "-l", path], text=True)
    return int(out.split()[0])


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    folder = os.path.join(tempfile.gettempdir(), f"sp_shards_{os.environ.get('TORCHELASTIC_RUN_ID', 'x')}")
    os.makedirs(folder, exist_ok=True)
    if rank == 0:
        with open(os.path.join(folder, "shard_0.txt"), "w") as f:
            f.writelines(f"row {i}\n" for i in range(40))
    lines = count_lines(os.path.join(folder, f"shard_{rank}.txt"))
    steps = torch.tensor([lines // 8])
    dist.all_reduce(steps, op=dist.ReduceOp.MIN)
    print(f"rank {rank}: {int(steps)} steps")
    dist.destroy_process_group()
