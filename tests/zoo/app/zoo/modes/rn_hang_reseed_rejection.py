"""Distinct random crop offsets by rejection: each draw builds a fresh generator from the run's seed "so that
crops are reproducible", so every draw gives the same offset and the loop never finds a new one."""

import torch

SEED = 17


def draw_offset(limit: int) -> int:
    g = torch.Generator().manual_seed(SEED)
    return int(torch.randint(0, limit, (1,), generator=g))


def distinct_offsets(n: int, limit: int) -> list[int]:
    used: list[int] = []
    while len(used) < n:
        off = draw_offset(limit)
        if off not in used:
            used.append(off)
    return used


def main() -> None:
    print("drawing 4 distinct crop offsets", flush=True)
    offsets = distinct_offsets(4, 100)
    print(offsets)
