"""Per-shard embeddings computed in a `torch.multiprocessing` Pool of 2 workers; each worker returns the
model's output, a non-leaf tensor that requires grad (no `torch.no_grad()`, no `.detach()`)."""

import torch
import torch.multiprocessing as mp

MODEL = torch.nn.Linear(16, 3)


def embed(shard: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(shard)
    return MODEL(torch.randn(2, 16, generator=g))


def main() -> None:
    ctx = mp.get_context("fork")
    with ctx.Pool(2) as pool:
        print("embedding 4 shards", flush=True)
        out = pool.map(embed, range(4))
    print(torch.cat(out).shape, flush=True)
