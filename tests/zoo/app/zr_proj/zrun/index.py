"""The sample index: an LMDB of encoded samples, built once by rank 0 and shared with the other ranks."""

import os
import pickle
import tempfile

import lmdb
import torch.distributed as dist


class ShardIndex:
    def __init__(self, path: str):
        self.path = path
        self.env = lmdb.open(path, map_size=1 << 22)
        with self.env.begin() as txn:
            self.length = txn.stat()["entries"]

    def __len__(self) -> int:
        return self.length


def build_index(n: int) -> str:
    path = os.path.join(tempfile.gettempdir(), f"zr-index-{os.getppid()}")
    env = lmdb.open(path, map_size=1 << 22)
    with env.begin(write=True) as txn:
        for i in range(n):
            txn.put(f"{i:06d}".encode(), pickle.dumps({"id": i, "tokens": list(range(i % 7 + 1))}))
    env.close()
    return path


def share_index(rank: int) -> ShardIndex:
    """Rank 0 builds the index and hands it to the others, so that only one rank scans the corpus."""
    objects = [ShardIndex(build_index(64))] if rank == 0 else [None]
    dist.broadcast_object_list(objects, src=0)
    return objects[0]
