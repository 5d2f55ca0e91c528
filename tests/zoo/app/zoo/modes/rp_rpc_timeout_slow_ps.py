"""The trainer's pull times out: the server's handler waits for its own snapshot lock, held 4 s while it saves.

The trainer issues rpc_async(..., timeout=1) to pull weights each step; on the server the first pull waits for the
lock its snapshot thread holds while it writes, and the trainer's future.wait() raises the RPC timeout.
"""

import os
import socket
import threading
import time

import torch
import torch.distributed.rpc as rpc
import torch.multiprocessing as mp

LOCK = threading.Lock()
WEIGHTS = torch.zeros(8)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def snapshot() -> None:
    with LOCK:
        time.sleep(4)  # writing the weights to disk


def pull_weights() -> torch.Tensor:
    with LOCK:
        return WEIGHTS.clone()


def rank_main(rank: int, port: int) -> None:
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    if rank == 1:
        threading.Thread(target=snapshot, daemon=True).start()
    rpc.init_rpc("trainer" if rank == 0 else "ps", rank=rank, world_size=2)
    if rank == 0:
        for step in range(3):
            fut = rpc.rpc_async("ps", pull_weights, timeout=1)
            weights = fut.wait()
            print(f"[trainer] step {step}: {weights.sum().item()}", flush=True)
    rpc.shutdown()


def main() -> None:
    mp.spawn(rank_main, args=(free_port(),), nprocs=2, join=True)
