"""A preprocessing pool's child fails on a truncated .xz shard; the main re-raises it from pool.map.

The shards were copied from the bucket by a job that was killed mid-copy; shard 3 lost its last 64 bytes. Each
pool process decompresses one shard with `lzma.decompress`; the child that gets shard 3 raises LZMAError, and
the main's `pool.map` re-raises it with the child's traceback (`multiprocessing.pool.RemoteTraceback`).
"""

import lzma
import multiprocessing as mp
import os
import tempfile

import numpy as np


def write_shards(folder: str, n: int) -> list[str]:
    paths = []
    for i in range(n):
        tokens = np.arange(i * 4096, (i + 1) * 4096, dtype=np.int32).tobytes()
        blob = lzma.compress(tokens)
        if i == 3:
            blob = blob[:-64]
        path = os.path.join(folder, f"shard-{i:02d}.xz")
        with open(path, "wb") as f:
            f.write(blob)
        paths.append(path)
    return paths


def unpack_shard(path: str) -> int:
    with open(path, "rb") as f:
        raw = lzma.decompress(f.read())
    tokens = np.frombuffer(raw, dtype=np.int32)
    return int(tokens.sum() % 997)


def main() -> None:
    paths = write_shards(tempfile.mkdtemp(prefix="nl_lzma-"), n=6)
    ctx = mp.get_context("fork")
    with ctx.Pool(2) as pool:
        sums = pool.map(unpack_shard, paths, chunksize=1)
    print("checksums", sums)
