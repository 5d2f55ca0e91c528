"""Routing tokens to experts (one expert per rank) and cutting an index range into shards."""

import torch


def route(tokens: torch.Tensor, world: int, capacity: int | None) -> tuple[torch.Tensor, list[int]]:
    """Top-1 routing by the first feature's sign pattern; an expert over capacity drops its extra tokens."""
    expert = (tokens[:, 0] > 0).long() % world
    order = torch.argsort(expert, stable=True)
    tokens, expert = tokens[order], expert[order]
    counts = [int((expert == e).sum()) for e in range(world)]
    if capacity is not None:
        keep = torch.cat([torch.nonzero(expert == e).flatten()[:capacity] for e in range(world)])
        tokens = tokens[keep]
    return tokens, counts


def index_shards(n: int, world: int) -> list[torch.Tensor]:
    per = -(-n // world)
    return [torch.arange(n)[i * per : (i + 1) * per] for i in range(world)]


def eval_split(n: int, rank: int, world: int) -> list[int]:
    return list(range(rank, n, world))
