"""Two gloo ranks under torchrun; the program's own excepthook prints one line of a failure. Run alone (2026-11-30,
torch 2.13.0+cpu, `torchrun --nproc_per_node=2`): exit 1; rank 1 looks its shard's size up in a dict of rank 0's
only, `KeyError: 1` at shard_of's line, and prints `[rankN]: [train] failed: KeyError: 1` (torchrun's label); rank 0
waits in the barrier and is stopped by torchrun (SIGTERM); torchrun's report names rank 1, exitcode 1, with no
traceback (`To enable traceback see ...`)."""

import sys

import torch.distributed as dist


def one_line(kind, value, tb):
    print(f"[train] failed: {kind.__name__}: {value}", file=sys.stderr)


def shard_of(rank, sizes):
    return sizes[rank]


def main():
    sys.excepthook = one_line
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    n = shard_of(rank, {0: 128})  # the second rank's size was never filled in
    dist.barrier()
    print(rank, n)


main()
