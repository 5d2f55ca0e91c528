"""`--gpus 0,1,2,3 --gpus-per-cell 2`: the GPU sets that running cells take, one set per cell at a time.

A set is a CUDA_VISIBLE_DEVICES value ("0,1"); the engine hands a free set to each
cell it starts and takes it back when the cell ends, so running cells never share a GPU.
"""

from __future__ import annotations

from crashmatrix.errors import BadInput


def gpu_sets(text: str, per_cell: int | None = None) -> list[str]:
    """Disjoint sets of `per_cell` ids each, in the order given; ids left over (5 GPUs, 2 a cell) stay unused."""
    ids = [g.strip() for g in text.split(",") if g.strip()]
    if not ids:
        raise BadInput("--gpus: expected GPU ids like 0,1,2")
    if len(set(ids)) < len(ids):
        raise BadInput(f"--gpus {text}: a GPU id is listed twice; cells would share it")
    per_cell = 1 if per_cell is None else per_cell
    if per_cell < 1:
        raise BadInput(f"--gpus-per-cell: expected a whole number >= 1, got {per_cell}")
    if per_cell > len(ids):
        raise BadInput(f"--gpus-per-cell {per_cell}: more than the {len(ids)} GPUs that --gpus {text} lists")
    return [",".join(ids[i : i + per_cell]) for i in range(0, len(ids) - per_cell + 1, per_cell)]
