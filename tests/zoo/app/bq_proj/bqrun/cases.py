"""The cases `train.py --case NAME` runs."""

import os
import tempfile
from multiprocessing import shared_memory

import numpy as np
import torch
from torch.utils.data import DataLoader

from bqrun import limits
from bqrun.data import CachedFeatures, Thumbnails, write_images


def _train(loader: DataLoader, width: int) -> None:
    model = torch.nn.Linear(width, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step, x in enumerate(loader):
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)


def shm_cache_bus() -> None:
    limits.container_shm()
    rows, width = 64, 256 * 1024  # 64 items of 1 MiB of features each
    shm = shared_memory.SharedMemory(create=True, size=rows * width * 4)
    try:
        cache = np.ndarray((rows, width), dtype=np.float32, buffer=shm.buf)
        loader = DataLoader(CachedFeatures(cache), batch_size=4, num_workers=2, multiprocessing_context="fork")
        _train(loader, 8)
    finally:
        shm.close()
        shm.unlink()


def pil_lazy_nofile() -> None:
    limits.open_files()
    paths = write_images(os.path.join(tempfile.mkdtemp(prefix="bq_proj-"), "images"), 600)
    loader = DataLoader(Thumbnails(paths), batch_size=8)
    _train(loader, 3)


def omp_threads_as() -> None:
    torch.set_num_threads(16)  # the cluster node's core count, from the job's config
    model = torch.nn.Sequential(torch.nn.Linear(512, 512), torch.nn.ReLU(), torch.nn.Linear(512, 1))
    limits.address_space()
    x = torch.randn(256, 512, generator=torch.Generator().manual_seed(0))
    for step in range(3):
        loss = model(x).pow(2).mean()
        loss.backward()
        print(f"step {step} loss {loss.item():.4f}", flush=True)


def scratch_memmap_bus() -> None:
    scratch = tempfile.mkdtemp(prefix="bq_proj-scratch-")
    limits.private_tmpfs(scratch, limits.PROFILE["scratch_mb"])
    rows, width = 64, 256 * 1024  # 64 MiB of float32 features
    feats = np.memmap(os.path.join(scratch, "feats.f32"), dtype=np.float32, mode="w+", shape=(rows, width))
    for i in range(rows):
        feats[i] = np.float32(i)  # the precomputed features, one row at a time
    feats.flush()
    print("features cached", feats.shape, flush=True)


CASES = {
    "shm_cache_bus": shm_cache_bus,
    "pil_lazy_nofile": pil_lazy_nofile,
    "omp_threads_as": omp_threads_as,
    "scratch_memmap_bus": scratch_memmap_bus,
}
