"""The kit's training and evaluation loops, one per case."""

import torch

from distkit import comm, shard


def moe_step(cfg: dict, rank: int, world: int) -> None:
    g = torch.Generator().manual_seed(rank)
    tokens = torch.randn(cfg["tokens"], 8, generator=g)
    capacity = cfg["capacity"] if rank == 1 else None
    routed, counts = shard.route(tokens, world, capacity)
    print(f"rank {rank}: {routed.shape[0]} tokens routed, counts {counts}", flush=True)
    received = comm.dispatch(routed, counts)
    print(f"rank {rank}: expert got {received.shape[0]} tokens", flush=True)


def evaluate(cfg: dict, rank: int, world: int) -> None:
    n = cfg["eval_rows"]
    mine = shard.eval_split(n, rank, world)
    emb = torch.randn(len(mine), 16)
    print(f"rank {rank}: {len(mine)} eval rows", flush=True)
    rows = comm.gather_rows(emb, n // world)
    if rank == 0:
        print(f"gathered {rows.shape[0]} rows", flush=True)


def scatter_index(cfg: dict, rank: int, world: int) -> None:
    n = cfg["samples"]
    shards = shard.index_shards(n, world) if rank == 0 else None
    mine = comm.scatter_shards(shards, -(-n // world))
    print(f"rank {rank}: shard of {mine.numel()} samples", flush=True)


def zero_step(cfg: dict, rank: int, world: int) -> None:
    """ZeRO-style: each rank keeps 1/world of the flat gradient, reduced and scattered in one collective."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 4), torch.nn.Tanh(), torch.nn.Linear(4, 3))
    model(torch.randn(16, 8)).pow(2).mean().backward()
    flat = torch.cat([p.grad.flatten() for p in model.parameters()])
    mine = comm.reduce_scatter_flat(flat)
    print(f"rank {rank}: holds {mine.numel()} of {flat.numel()} gradient values", flush=True)


LOOPS = {"moe": moe_step, "eval": evaluate, "scatter": scatter_index, "zero": zero_step}


def main(cfg: dict) -> None:
    rank, world = comm.setup()
    LOOPS[cfg["loop"]](cfg, rank, world)
    comm.teardown()
