"""Uneven inputs across DDP ranks: rank 1 runs out of batches, ends normally, and rank 0 (still training) dies.

    torchrun --nproc_per_node=2 ddp_uneven.py uneven=shard
    python ddp_uneven.py launcher=spawn uneven=break            # torch.multiprocessing.spawn

2 gloo ranks on CPU, one batch of one sample a step. `uneven` picks how rank 1 ends first:
- shard: each rank takes its own slice of an 11-sample dataset (`range(rank, 11, 2)`): rank 0 gets 6
  batches, rank 1 gets 5 (what a hand-made shard, or an IterableDataset split by rank, does);
- break: both get 6 batches from a DistributedSampler, and rank 1 leaves its loop after 5 (a
  rank-dependent `break`);
- even: DistributedSampler over the same 11 samples (it pads them to 6 a rank): the fix; it passes;
- join: the uneven shard, its loop inside torch.distributed.algorithms.Join([model]): the other fix; passes.

The truth, from running it alone (torch 2.13 CPU, Python 3.11, this 2-core box):
- Rank 1 draws 5 batches, leaves its loop, calls destroy_process_group and exits 0. Rank 0 draws its 6th
  batch and fails in that step's backward (ddp_uneven.py:69 in steps, DDP's gradient all_reduce) with gloo's
  `RuntimeError: [.../gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:17832`
  at once (no hang until a timeout: rank 1's exit closes its sockets); the port changes every run.
- torchrun: exit status 1; its report's "Root Cause (first observed failure)" is rank 0, exitcode 1, and
  "Failures: <NO_OTHER_FAILURES>": it is wrong, rank 0 is the victim; rank 1, which exited 0, is in no
  line of torchrun's (it lists failed ranks only). Only rank 0's traceback is labelled `[rank0]:`.
- torch.multiprocessing.spawn: exit status 1; `ProcessRaisedException: -- Process 0 terminated with the
  following error:` with rank 0's gloo traceback; nothing names rank 1, which exited 0.
- Twice, with five such runs at once on this box at load average 25, a spawned rank 1 wrote its end (after 5
  steps) and then spent a whole 120 s timeout in its interpreter's exit (faulthandler: "Garbage-collecting",
  no Python frame) with its sockets open, while rank 0 waited in its 6th step's all_reduce: a hang, whose
  straggler is rank 1 (`rank 1 ended after 5 steps, its process not yet exited, outside any collective`).
So the first event is rank 1's end, after 5 steps, while rank 0 was at step 6; the fix is every rank the
same number of batches (DistributedSampler, drop_last=True, or torch.distributed.algorithms.Join).
"""

import os
import socket
import sys

import torch
import torch.distributed as dist
from torch.distributed.algorithms import Join
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, Subset, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def batches(rank: int, uneven: str) -> DataLoader:
    data = TensorDataset(torch.randn(12, 4), torch.randn(12, 1))
    if uneven in ("shard", "join"):
        return DataLoader(Subset(data, range(rank, 11, 2)), batch_size=1)
    if uneven == "even":
        return DataLoader(Subset(data, range(11)), batch_size=1, sampler=DistributedSampler(Subset(data, range(11))))
    return DataLoader(data, batch_size=1, sampler=DistributedSampler(data, shuffle=False))


def train(rank: int, world_size: int, uneven: str) -> None:
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    model = DistributedDataParallel(torch.nn.Linear(4, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    with Join([model], enable=uneven == "join"):
        steps(rank, uneven, model, optimizer)
    dist.destroy_process_group()


def steps(rank: int, uneven: str, model, optimizer) -> None:
    for step, (x, y) in enumerate(batches(rank, uneven)):
        if uneven == "break" and rank == 1 and step == 5:
            break  # rank 1 stops early; rank 0 goes on to its 6th step
        loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()  # DDP's all_reduce of the gradients: where rank 0 finds rank 1 gone
        optimizer.step()


def spawned(rank: int, world_size: int, uneven: str) -> None:
    train(rank, world_size, uneven)


def main() -> None:
    args = dict(a.split("=", 1) for a in sys.argv[1:])
    uneven = args.get("uneven", "shard")
    if args.get("launcher") == "spawn":
        import torch.multiprocessing as mp

        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            os.environ["MASTER_PORT"] = str(s.getsockname()[1])
        mp.spawn(spawned, args=(2, uneven), nprocs=2)
    else:
        train(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), uneven)


if __name__ == "__main__":
    main()
