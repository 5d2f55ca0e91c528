"""Starting the two processes: a trainer (rank 0) and a parameter server (rank 1), on 127.0.0.1."""

import os
import socket

import torch.distributed.rpc as rpc
import torch.multiprocessing as mp


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_rpc(rank: int, world_size: int, port: int) -> None:
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    name = "trainer" if rank == 0 else "ps"
    opts = rpc.TensorPipeRpcBackendOptions(num_worker_threads=4, rpc_timeout=20)
    rpc.init_rpc(name, rank=rank, world_size=world_size, rpc_backend_options=opts)


def spawn(fn, *args) -> None:
    mp.spawn(fn, args=(2, free_port(), *args), nprocs=2, join=True)
