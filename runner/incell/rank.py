"""The rank of a process of a distributed cell, from what its launcher gave it.

- torchrun (and crashmatrix's Slurm tasks) set RANK in each rank's environment; a rank of a node's group
  also has LOCAL_RANK with GROUP_RANK (torchrun) or NODE_RANK (Lightning's re-executed script), and
  LOCAL_WORLD_SIZE where torchrun knows it.
- torch.multiprocessing.spawn (and Lightning's ddp_spawn, which uses it) sets nothing: each rank is a
  multiprocessing process whose target is torch's `_wrap(fn, i, ...)`, and `i` is its index, the rank on
  one node.

Used inside a cell (os.environ, the current process) and by the controller (a pid's /proc environ), so
that both name a process by the same rank. Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping


def _whole(text) -> int | None:
    return int(text) if isinstance(text, str) and text.isdigit() else None


def rank_of(environ: Mapping[str, str]) -> int | None:
    """The global rank an environment gives its process, or None where it names none."""
    rank = _whole(environ.get("RANK"))
    if rank is not None:
        return rank
    local = _whole(environ.get("LOCAL_RANK"))
    if local is None:
        return None
    node = _whole(environ.get("GROUP_RANK", environ.get("NODE_RANK")))
    per_node = _whole(environ.get("LOCAL_WORLD_SIZE"))
    if not node:
        return local  # the first node (or one node): its local ranks are the global ones
    return node * per_node + local if per_node else None


def spawned_rank(process) -> int | None:
    """The index torch.multiprocessing.spawn gave a multiprocessing process (`_wrap(fn, i, ...)`), or None
    for any other process (a DataLoader worker, the program's own)."""
    target = getattr(process, "_target", None)
    args: tuple = getattr(process, "_args", ())
    if getattr(target, "__name__", "") != "_wrap" or getattr(target, "__module__", "") != "torch.multiprocessing.spawn":
        return None
    return args[1] if len(args) > 1 and isinstance(args[1], int) else None
