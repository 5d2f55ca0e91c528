"""Embeddings computed in a `torch.multiprocessing` Pool with `maxtasksperchild=1` (fresh workers, to keep a
leaking tokenizer's memory bounded); each task returns a tensor, which torch sends as a shared-memory file
descriptor that the worker must still be alive to hand over. The worker exits after its one task, the pool's
result thread cannot fetch the descriptor, and `pool.map` waits for ever."""

import torch
import torch.multiprocessing as tmp


def embed(shard: int):
    torch.manual_seed(shard)
    return torch.randn(4, 8)


def main() -> None:
    print("embedding 6 shards in a pool (2 workers, maxtasksperchild=1)", flush=True)
    with tmp.Pool(2, maxtasksperchild=1) as pool:
        out = pool.map(embed, range(6))
    print(f"got {len(out)} embeddings", flush=True)
