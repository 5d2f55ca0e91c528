"""Two gloo ranks (torch.multiprocessing.spawn), each held to 384 MB of data past its mapping (RLIMIT_DATA, the
job's per-task memory). The loop catches an allocation failure and skips the batch, as the recipe it came from
did on one GPU: rank 1's batch 2 is a 6144-token document whose attention scores (6144 x 6144 x 4 heads) are
refused, rank 1 skips that step, and with it that step's gradient all_reduce. Rank 1 ends its loop a collective
short and polls for the checkpoint rank 0 is to write; rank 0 waits in its last all_reduce for ever."""

import os
import resource
import socket
import tempfile
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

LENGTHS = {0: [256, 256, 256, 256], 1: [256, 256, 6144, 256]}


def mapped_data() -> int:
    with open("/proc/self/status") as f:
        return int(next(x for x in f if x.startswith("VmData:")).split()[1]) * 1024


def attention(q: torch.Tensor) -> torch.Tensor:
    scores = q @ q.transpose(-1, -2) / q.shape[-1] ** 0.5
    return torch.softmax(scores, dim=-1) @ q


def rank_entry(rank: int, world: int, port: int, ckpt_dir: str) -> None:
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world)
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    resource.setrlimit(resource.RLIMIT_DATA, (mapped_data() + (384 << 20), hard))
    w = torch.nn.Parameter(torch.randn(32, 32) * 0.1)
    for step, n in enumerate(LENGTHS[rank]):
        q = torch.randn(4, n, 32) @ w
        try:
            loss = attention(q).pow(2).mean()
        except RuntimeError as e:
            if "can't allocate memory" not in str(e):
                raise
            print(f"[rank{rank}] step {step}: out of memory, skipping batch", flush=True)
            continue
        loss.backward()
        dist.all_reduce(w.grad)
        with torch.no_grad():
            w -= 0.01 * w.grad
        w.grad = None
        print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)
    done = os.path.join(ckpt_dir, "epoch0.done")
    if rank == 0:
        torch.save(w.detach(), os.path.join(ckpt_dir, "epoch0.pt"))
        open(done, "w").close()
    else:
        print(f"[rank{rank}] waiting for rank 0's checkpoint", flush=True)
        while not os.path.exists(done):
            time.sleep(0.2)
    print(f"[rank{rank}] done", flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    mp.spawn(rank_entry, args=(2, free_port(), tempfile.mkdtemp(prefix="om_ckpt_")), nprocs=2)
