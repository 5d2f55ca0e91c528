"""Failures that must keep one signature over repeats, and two different ones two (signature.py).

    torchrun --nproc_per_node=2 sig_repeats.py fault=peer_gone   # rank 1 runs out of batches and ends
    torchrun --nproc_per_node=2 sig_repeats.py fault=mismatch    # rank 0 all_reduces [4], rank 1 [8]
    python sig_repeats.py fault=null_header                       # ctypes NULL dereference in parse_header
    python sig_repeats.py fault=deep_nesting                      # C stack overflow in nest_config

The truth, from each run alone (torch 2.13.0+cpu, Python 3.11, 2 gloo ranks on CPU):
- peer_gone: rank 1 has 2 batches, rank 0 has 6. Rank 1 leaves its loop, destroys its process group and
  exits 0; rank 0's next all_reduce (step 2) raises `RuntimeError: [.../gloo/transport/tcp/pair.cc:553]
  Connection closed by peer [127.0.0.1]:PORT`, or in some runs `[...pair.cc:537] Read error
  [127.0.0.1]:PORT: Connection reset by peer` (whichever side of the socket noticed first; the port differs
  on every run). torchrun's root cause names rank 0, exit code 1. The first event is rank 1's early end;
  rank 0's error is its consequence.
- mismatch: rank 0 aborts: `terminate called after throwing an instance of 'gloo::EnforceNotMet'` /
  `what():  [enforce fail at .../gloo/transport/tcp/pair.cc:456] op.preamble.length <= op.nbytes. 8 vs 4.
  Received data size doesn't match expected size. Is there a distributed collective mismatch in your
  code?`, then `Fatal Python error: Aborted`. The abort is on a gloo thread without Python frames:
  faulthandler lists the main thread as `Thread 0x...`, innermost own frame `sig_repeats.py:NN in
  class_counts`. Rank 1 then fails with `Connection reset by peer [127.0.0.1]:PORT` (a victim); torchrun
  sends it SIGTERM and names rank 0 (exitcode -6, SIGABRT) as the root cause.
- null_header: SIGSEGV in ctypes.string_at, faulthandler's innermost own frame `parse_header`.
- deep_nesting: SIGSEGV from C stack overflow (nest_config recursing through max()'s key, recursion limit
  raised), the innermost own frame `nest_config`.
"""

import ctypes
import os
import sys


def parse_header(raw: bytes) -> int:
    address = int.from_bytes(raw[:8], "little")  # a header field read as a pointer: 0 here
    return len(ctypes.string_at(address))


def nest_config(depth: int) -> int:
    # Each level goes through a C function (max calls its key), so each level takes C stack too.
    return depth and max([depth - 1], key=nest_config)


def class_counts(rank: int):
    import torch
    import torch.distributed as dist

    counts = torch.ones(4 if rank == 0 else 8)  # a rank-dependent shape: a collective mismatch
    dist.all_reduce(counts)
    return counts


def train(fault: str) -> None:
    import torch
    import torch.distributed as dist

    torch.set_num_threads(1)
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    batches = 2 if rank == 1 else 6  # uneven inputs: rank 1 runs out first
    for _step in range(batches if fault == "peer_gone" else 3):
        if fault == "mismatch":
            class_counts(rank)
        else:
            dist.all_reduce(torch.ones(4))
    dist.destroy_process_group()


def main() -> None:
    params = dict(arg.split("=", 1) for arg in sys.argv[1:])
    fault = params.get("fault", "")
    if fault == "null_header":
        parse_header(bytes(16))
    elif fault == "deep_nesting":
        sys.setrecursionlimit(10**8)  # the program lifted Python's guard; the C stack is what runs out
        nest_config(10**7)
    elif "RANK" in os.environ:
        train(fault)


if __name__ == "__main__":
    main()
