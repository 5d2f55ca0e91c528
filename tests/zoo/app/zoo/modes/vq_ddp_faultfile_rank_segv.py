"""torchrun, 2 gloo ranks, each with faulthandler writing to its own crash file; rank 1 dies by SIGSEGV.

Each rank points faulthandler at $TMPDIR/crash-rank<N>.log (per-rank crash logs, as large trainers keep) and
logs its steps with timestamps. Rank 1's shard reader copies a record through ctypes at an offset taken from a
corrupt shard header (step 3) and dies by SIGSEGV; rank 0 waits in all_reduce. torchrun prints only the signal.
"""

import ctypes
import faulthandler
import logging
import os
import tempfile

import numpy as np
import torch
import torch.distributed as dist

log = logging.getLogger("vq.ddp")
CRASH_FILES = []


def crash_log(rank: int) -> None:
    f = open(os.path.join(tempfile.gettempdir(), f"crash-rank{rank}.log"), "w")
    CRASH_FILES.append(f)
    faulthandler.enable(file=f, all_threads=True)


def read_shard(buf: np.ndarray, offset: int, n: int) -> torch.Tensor:
    raw = ctypes.string_at(buf.ctypes.data + offset, n * 4)
    return torch.frombuffer(bytearray(raw), dtype=torch.float32).reshape(-1, 8)


def run(rank: int, world_size: int) -> None:
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s [rank{rank}] %(levelname)s %(message)s")
    crash_log(rank)
    dist.init_process_group("gloo")
    model = torch.nn.Linear(8, 1)
    buf = np.random.default_rng(rank).standard_normal(1024).astype(np.float32)
    for step in range(6):
        offset = step * 64 * 4
        if rank == 1 and step == 3:
            offset = 1 << 46  # the shard header's offset field, corrupt
        x = read_shard(buf, offset, 64)
        loss = model(x).pow(2).mean()
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        log.info("step %d loss %.4f", step, loss.item())
    dist.destroy_process_group()
