"""Two gloo ranks under torchrun; the program's own excepthook prints one line of a failure. Run alone (2026-11-30,
torch 2.13.0+cpu, `torchrun --nproc_per_node=2`): exit 1; rank 1 looks its shard's size up in a dict of rank 0's
only, `KeyError: 1` at shard_of's line, and prints `[rankN]: [train] failed: KeyError: 1` (torchrun's label); rank 0
waits in the barrier and is stopped by torchrun (SIGTERM); torchrun's report names rank 1, exitcode 1, with no
traceback (`To enable traceback see ...`). With `report=caught`: exit 1; rank 1 catches the KeyError, prints
`rank 1: no shard size: KeyError(1)` (no label: no exception reached torch's hook) and ends itself by sys.exit(3)
at main's line; rank 0's barrier fails with gloo's `Connection closed by peer` (its traceback under `[rank0]: `);
torchrun's report names rank 1 as the root cause, exitcode 3, with no traceback of it."""

import sys

import torch.distributed as dist


def one_line(kind, value, tb):
    print(f"[train] failed: {kind.__name__}: {value}", file=sys.stderr)


def shard_of(rank, sizes):
    return sizes[rank]


def main():
    caught = "report=caught" in sys.argv[1:]  # its own except block and sys.exit(3), else its own hook
    if not caught:
        sys.excepthook = one_line
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    try:
        n = shard_of(rank, {0: 128})  # the second rank's size was never filled in
    except KeyError as e:
        if not caught:
            raise
        print(f"rank {rank}: no shard size: {e!r}", file=sys.stderr, flush=True)
        sys.exit(3)
    dist.barrier()
    print(rank, n)


main()
