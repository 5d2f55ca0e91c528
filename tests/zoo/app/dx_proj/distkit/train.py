"""The kit's training and evaluation loops, one per case."""

import os
import tempfile

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


def resumable(cfg: dict, rank: int, world: int) -> None:
    ckpt_dir = os.path.join(tempfile.gettempdir(), f"distkit-{os.getppid()}")
    os.makedirs(ckpt_dir, exist_ok=True)
    path = os.path.join(ckpt_dir, f"rank{rank}.pt")
    start = torch.load(path)["step"] + 1 if os.path.exists(path) else 0
    print(f"rank {rank}: attempt {comm.restart_count()}, starting at step {start}", flush=True)
    model = torch.nn.Linear(4, 2)
    for step in range(start, cfg["steps"]):
        x = torch.randn(8, 4)
        model(x).sum().backward()
        torch.save({"step": step, "model": model.state_dict()}, path)
        if step % cfg["eval_every"] == 0 and step > 0:
            val = [] if rank == 1 else list(range(4))
            correct = sum(1 for i in val if i % 2 == 0)
            print(f"rank {rank}: step {step} accuracy {correct / len(val):.2f}", flush=True)
    print(f"rank {rank}: done", flush=True)


LOOPS = {"moe": moe_step, "eval": evaluate, "scatter": scatter_index, "resume": resumable}


def main(cfg: dict) -> None:
    rank, world = comm.setup()
    LOOPS[cfg["loop"]](cfg, rank, world)
    comm.teardown()
