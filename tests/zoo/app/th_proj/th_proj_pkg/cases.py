"""The cases: each trains a few steps the way the project does."""

import ctypes
import os

import torch

from th_proj_pkg import data, heads
from th_proj_pkg.stage import Stager

BATCH_FLOATS = 16 << 20  # 64 MiB of float32 a batch


def staging_freed_batch() -> None:
    stager = Stager(BATCH_FLOATS * 4)
    total = 0.0
    for step in range(3):
        batch = torch.full((BATCH_FLOATS,), float(step))
        stager.flush()
        total += float(batch[:8].sum())
        stager.submit(batch.data_ptr(), batch.numel() * batch.element_size())
        print(f"step {step}: staged {batch.numel() * 4 >> 20} MiB", flush=True)
    stager.flush()
    print(f"done: {total}", flush=True)


def omp_nested_env_worker() -> None:
    os.environ["OMP_NUM_THREADS"] = "4,1"  # the site's launch profile: 4 outer threads, 1 nested
    for batch in data.frame_loader():
        print(f"batch mean {float(batch.mean()):.2f}", flush=True)


def heads_thread_autocast() -> None:
    torch.manual_seed(0)
    model = heads.Model()
    x = torch.randn(4, 10, 16)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = model(x)
    print(f"pooled {tuple(out.shape)}", flush=True)


def spawn_worker_raw_pointer() -> None:
    rows, dim = 64, 8
    table = (ctypes.c_float * (rows * dim * 32768))()  # a large table: workers read rows from it by address
    for batch in data.table_loader(table, rows, dim):
        print(f"batch {tuple(batch.shape)}", flush=True)


CASES = {
    f.__name__: f for f in [staging_freed_batch, omp_nested_env_worker, heads_thread_autocast, spawn_worker_raw_pointer]
}
