"""mp.spawn(join=True), 2 gloo ranks: rank 0 saves the checkpoint and then, inside its `if rank == 0:` block, waits
in dist.barrier() "so the others see the file"; rank 1 polls for the ready marker that rank 0 writes after the
barrier. Neither ever moves: rank 0 in the barrier, rank 1 outside any collective.
"""

import os
import socket
import tempfile
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def _rank(rank: int, port: int, folder: str) -> None:
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=2)
    model = torch.nn.Linear(4, 2)
    ckpt = os.path.join(folder, "model.pt")
    ready = os.path.join(folder, "READY")
    if rank == 0:
        torch.save(model.state_dict(), ckpt)
        dist.barrier()
        open(ready, "w").close()
    while not os.path.exists(ready):
        time.sleep(0.2)
    model.load_state_dict(torch.load(ckpt))
    print(f"[rank{rank}] loaded the checkpoint", flush=True)
    dist.destroy_process_group()


def main() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    folder = tempfile.mkdtemp(prefix="zr-ckpt-")
    mp.spawn(_rank, args=(port, folder), nprocs=2, join=True)
