"""A prefetch child and a writer child forked from the main; the writer is handed the prefetch Process to wait for
it before it writes the index, and join() refuses a process that is not its child."""

import multiprocessing as mp
import os
import tempfile
import time

import torch


def prefetch(folder: str) -> None:
    for i in range(4):
        torch.save(torch.randn(16, 16), os.path.join(folder, f"shard_{i}.pt"))
        time.sleep(0.05)


def write_index(folder: str, prefetcher) -> None:
    prefetcher.join()
    names = sorted(os.listdir(folder))
    with open(os.path.join(folder, "index.txt"), "w") as f:
        f.write("\n".join(names))


def main() -> None:
    folder = tempfile.mkdtemp()
    ctx = mp.get_context("fork")
    prefetcher = ctx.Process(target=prefetch, args=(folder,))
    prefetcher.start()
    writer = ctx.Process(target=write_index, args=(folder, prefetcher))
    writer.start()
    prefetcher.join()
    writer.join()
    print(f"prefetch exit {prefetcher.exitcode}, writer exit {writer.exitcode}", flush=True)
    if writer.exitcode != 0:
        raise RuntimeError(f"index writer failed with exit code {writer.exitcode}")
