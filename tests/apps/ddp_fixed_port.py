"""The DDP tutorial's form: the program sets MASTER_ADDR and a fixed MASTER_PORT itself, then mp.spawn's 2 ranks.

    python ddp_fixed_port.py port=12355 lr=0.1

2 gloo ranks on CPU train a Linear for 20 steps; rank 0 holds the job open for `hold_s` more seconds after
it joins (a longer training), so that two such programs at once overlap for certain.

The truth, from running it alone and two at once (torch 2.13 CPU, Python 3.11, this 2-core box):
- Alone, any lr: both ranks train, exit 0, "done" (4 s at hold_s=0).
- Two at once on one port (what `--jobs 2` does): the one whose rank 0 binds second fails in
  init_process_group (ddp_fixed_port.py, `setup`) with torch's
  `DistNetworkError: The server socket has failed to listen on any local network address. port: 12355,
  useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use`, under
  `ProcessRaisedException: -- Process 0 terminated with the following error:`. Its rank 1 meanwhile joins
  the *other* program's store at that port; when spawn then ends it, the other program's rank 0 can fail
  too, with gloo's `Connection closed by peer` (seen once in three tries): neither failure is the lr's.
- `ranks=1`: one rank in the program's own process (no mp.spawn), world size 1. Alone it passes; two at once,
  the second fails in the same `setup` with the same DistNetworkError ... EADDRINUSE, not under spawn's
  ProcessRaisedException, and no rank of it can reach the other program.
"""

import os
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel


def setup(rank: int, world_size: int, port: str) -> None:
    os.environ["MASTER_ADDR"] = "localhost"
    os.environ["MASTER_PORT"] = port
    dist.init_process_group("gloo", rank=rank, world_size=world_size)


def train(rank: int, world_size: int, args: dict) -> None:
    setup(rank, world_size, args.get("port", "12355"))
    model = DistributedDataParallel(torch.nn.Linear(10, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=float(args.get("lr", 0.1)))
    for _ in range(20):
        optimizer.zero_grad()
        model(torch.randn(8, 10)).sum().backward()
        optimizer.step()
    if rank == 0:
        time.sleep(float(args.get("hold_s", 0)))
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    arguments = dict(a.split("=", 1) for a in sys.argv[1:])
    if arguments.get("ranks") == "1":
        train(0, 1, arguments)  # one rank, in this process: the same init_process_group on the same port
    else:
        mp.spawn(train, args=(2, arguments), nprocs=2)
    print("done")
