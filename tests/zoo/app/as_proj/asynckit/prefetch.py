"""Shards written to a temporary folder and read back ahead of the step by a thread pool."""

import asyncio
import gzip
import io
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor

import torch


def write_shards(n: int, plain: int | None = None) -> str:
    """Shards are gzip-compressed .pt.gz files; shard `plain` was re-exported by an older tool, uncompressed."""
    root = tempfile.mkdtemp(prefix="asynckit-")
    for i in range(n):
        shard = {"x": torch.randn(16, 8), "y": torch.randint(0, 2, (16,))}
        path = os.path.join(root, f"shard{i}.pt.gz")
        with (open if i == plain else gzip.open)(path, "wb") as f:
            torch.save(shard, f)
    return root


def load_shard(root: str, i: int) -> dict:
    with gzip.open(os.path.join(root, f"shard{i}.pt.gz"), "rb") as f:
        raw = f.read()
    return torch.load(io.BytesIO(raw))


class Prefetcher:
    """Keeps the next shard loading in a thread while the current one trains."""

    def __init__(self, root: str, n: int):
        self.root, self.n = root, n
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="prefetch")

    def epoch(self):
        fut = self.pool.submit(load_shard, self.root, 0)
        for i in range(self.n):
            shard = fut.result()
            if i + 1 < self.n:
                fut = self.pool.submit(load_shard, self.root, i + 1)
            yield shard
        self.pool.shutdown(wait=True)  # tidy up at the epoch's end


async def aload_shards(root: str, n: int) -> list[dict]:
    loop = asyncio.get_running_loop()
    return await asyncio.gather(*(loop.run_in_executor(None, load_shard, root, i) for i in range(n)))
