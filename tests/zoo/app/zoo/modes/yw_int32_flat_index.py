"""A flat index computed in int32 overflows on a large tile grid; index_select refuses the negative index.

The program keeps one embedding row per cell of a 50000 x 50000 tile grid, hashed into a table of 4096 rows by a
flat index y * W + x. Its coordinates come from the tile files as int32, so the product is int32 too: for
y = 42950 it wraps past 2**31 to a negative value, and the remainder taken with torch.fmod (C's sign) stays
negative. index_select refuses it.
"""

import torch

W = 50_000
TABLE = 4096


def lookup(table: torch.Tensor, ys: torch.Tensor, xs: torch.Tensor) -> torch.Tensor:
    flat = ys * W + xs  # int32 coordinates: the product wraps
    return table.index_select(0, torch.fmod(flat, TABLE))


def main() -> None:
    table = torch.nn.Parameter(torch.randn(TABLE, 16))
    head = torch.nn.Linear(16, 1)
    opt = torch.optim.SGD([table, *head.parameters()], lr=0.1)
    for step, row in enumerate(range(42_930, 42_970, 10)):
        ys = torch.full((32,), row, dtype=torch.int32)
        xs = torch.arange(32, dtype=torch.int32) * 7
        loss = head(lookup(table, ys, xs)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} rows {row} loss {loss.item():.4f}", flush=True)
