"""Collectives the kit uses: process group set-up, expert dispatch, gathering evaluation rows, sharding."""

from datetime import timedelta

import torch
import torch.distributed as dist


def setup() -> tuple[int, int]:
    dist.init_process_group("gloo", timeout=timedelta(seconds=10))
    return dist.get_rank(), dist.get_world_size()


def dispatch(tokens: torch.Tensor, send_counts: list[int]) -> torch.Tensor:
    """Send send_counts[r] rows of tokens to rank r; receive what every rank sends here."""
    counts = torch.tensor(send_counts, dtype=torch.long)
    recv_counts = torch.empty_like(counts)
    dist.all_to_all_single(recv_counts, counts)
    out = torch.empty(int(recv_counts.sum()), tokens.shape[1])
    dist.all_to_all_single(out, tokens, recv_counts.tolist(), send_counts)
    return out


def gather_rows(local: torch.Tensor, rows_per_rank: int) -> torch.Tensor:
    world = dist.get_world_size()
    out = torch.empty(world * rows_per_rank, local.shape[1])
    dist.all_gather_into_tensor(out, local)
    return out


def scatter_shards(shards: list[torch.Tensor] | None, shard_len: int) -> torch.Tensor:
    out = torch.empty(shard_len, dtype=torch.long)
    dist.scatter(out, shards, src=0)
    return out


def reduce_scatter_flat(flat: torch.Tensor) -> torch.Tensor:
    world = dist.get_world_size()
    out = torch.empty(flat.numel() // world)
    dist.reduce_scatter_tensor(out, flat)
    return out


def teardown() -> None:
    dist.destroy_process_group()
