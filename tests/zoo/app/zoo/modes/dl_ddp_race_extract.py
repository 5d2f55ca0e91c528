"""torchrun, 2 gloo ranks: both use one shared cache. Rank 0 downloads the archive (written in chunks, as a slow
mirror delivers it); rank 1 sees the file exist and opens it while rank 0 is still writing it."""

import io
import os
import time
import zipfile
from datetime import timedelta

import torch
import torch.distributed as dist

CACHE = os.path.join("/tmp", f"dl_ddp_cache_{os.getppid()}")  # one per torchrun agent, shared by its ranks


def download(path: str) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("digits/train.pt", os.urandom(1 << 16))
    blob = buf.getvalue()
    with open(path, "wb") as f:
        for i in range(0, len(blob), len(blob) // 4):
            f.write(blob[i : i + len(blob) // 4])
            f.flush()
            time.sleep(0.5)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", timeout=timedelta(seconds=60))
    path = os.path.join(CACHE, "digits.zip")
    if rank == 0:
        os.makedirs(CACHE, exist_ok=True)
        download(path)
    else:
        while not os.path.exists(path):
            time.sleep(0.05)
        time.sleep(0.2)
    with zipfile.ZipFile(path) as z:
        z.extractall(os.path.join(CACHE, f"rank{rank}"))
    t = torch.ones(1)
    dist.all_reduce(t)
    print(f"rank {rank}: extracted, {t.item()} ranks ready", flush=True)
    dist.destroy_process_group()
