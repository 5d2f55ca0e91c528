"""A tiny DDP training program (2 gloo ranks on CPU), launched the ways users launch one.

    torchrun --nproc_per_node=2 ddp_train.py fault=raise:0
    python -m torch.distributed.run --nproc_per_node=2 ddp_train.py fault=segv:1
    python ddp_train.py launcher=spawn fault=worker_segv:1     # torch.multiprocessing.spawn

(key=value arguments, as crashmatrix passes a cell's parameters.) fault=KIND:RANK makes that rank fail at step 1, after a first all-reduced step:
raise (ValueError: bad batch on rank R), segv (the rank's own SIGSEGV), worker_segv
(a DataLoader worker of that rank segfaults). The other ranks are the victims.
"""

import ctypes
import os
import sys

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, Dataset


class Batches(Dataset):
    def __init__(self, segv_in_worker: bool):
        self.segv_in_worker = segv_in_worker

    def __len__(self):
        return 16

    def __getitem__(self, i):
        if self.segv_in_worker and i >= 4:
            ctypes.string_at(0)  # a real segfault inside the DataLoader worker
        return torch.full((4,), float(i)), torch.tensor([float(i % 2)])


def train(rank: int, world_size: int, fault: str) -> None:
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    kind, _, at = fault.partition(":")
    mine = at != "" and int(at) == rank
    model = DistributedDataParallel(torch.nn.Linear(4, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    workers = 1 if kind == "worker_segv" else 0
    loader = DataLoader(Batches(mine and kind == "worker_segv"), batch_size=2, num_workers=workers)
    for step, (x, y) in enumerate(loader):
        if step == 1 and mine and kind == "raise":
            raise ValueError(f"bad batch on rank {rank}")
        if step == 1 and mine and kind == "segv":
            ctypes.string_at(0)
        loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step == 3:
            break
    dist.destroy_process_group()


def spawned(rank: int, world_size: int, fault: str) -> None:
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    train(rank, world_size, fault)


def main() -> None:
    args = dict(a.split("=", 1) for a in sys.argv[1:])
    fault = args.get("fault", "none")
    if args.get("launcher") == "spawn":
        import socket

        import torch.multiprocessing as mp

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            os.environ["MASTER_PORT"] = str(s.getsockname()[1])
        mp.spawn(spawned, args=(2, fault), nprocs=2)
    else:
        train(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), fault)


if __name__ == "__main__":
    main()
