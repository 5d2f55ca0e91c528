"""torchrun, 2 gloo ranks, the rank function under @record: resuming picks `ckpts[TORCHELASTIC_RESTART_COUNT - 1]`.

Each rank keeps its checkpoints in its own folder; rank 0's holds one from an earlier run, rank 1's is empty. On
the first attempt (restart count 0) the index is -1, the newest; rank 1's list is empty and it raises while rank 0
goes on into DDP's first broadcast.
"""

import glob
import os
import tempfile

import torch
import torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record
from torch.nn.parallel import DistributedDataParallel as DDP


def latest(rank: int) -> str:
    d = os.path.join(tempfile.gettempdir(), f"el_ddp_ckpt_{os.environ['MASTER_PORT']}", f"rank{rank}")
    os.makedirs(d, exist_ok=True)
    if rank == 0:
        open(os.path.join(d, "step-4.pt"), "w").close()
    ckpts = sorted(glob.glob(os.path.join(d, "*.pt")))
    return ckpts[int(os.environ["TORCHELASTIC_RESTART_COUNT"]) - 1]


@record
def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    print(f"[rank{rank}] resuming from {os.path.basename(latest(rank))}", flush=True)
    ddp = DDP(torch.nn.Linear(8, 1))
    ddp(torch.randn(4, 8)).sum().backward()
    dist.destroy_process_group()
