"""A trainer asks the parameter server by a name nobody registered: the server joined as "ps".

Rank 1 registers as "ps"; the trainer's config still says "parameter_server" (the name of an older launcher), so its
first rpc_sync raises on rank 0 while rank 1 waits in rpc.shutdown() for it.
"""

import os
import socket

import torch
import torch.distributed.rpc as rpc
import torch.multiprocessing as mp

CONFIG = {"server": "parameter_server", "lr": 0.05}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pull(step: int) -> torch.Tensor:
    return torch.full((4,), float(step))


def rank_main(rank: int, port: int) -> None:
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    rpc.init_rpc("trainer" if rank == 0 else "ps", rank=rank, world_size=2)
    if rank == 0:
        weights = rpc.rpc_sync(CONFIG["server"], pull, args=(0,))
        print(f"[trainer] pulled {weights.tolist()}", flush=True)
    rpc.shutdown()


def main() -> None:
    mp.spawn(rank_main, args=(free_port(),), nprocs=2, join=True)
