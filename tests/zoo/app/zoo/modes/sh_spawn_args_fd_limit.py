"""torch.multiprocessing.spawn handed 200 per-shard tensors in args; the program set its open-files limit to
128 at start, and pickling the args for the spawned children shares each tensor by descriptor."""

import resource

import torch
import torch.multiprocessing as mp


def worker(rank: int, shards: list) -> None:
    print(f"worker {rank}: {sum(int(s.numel()) for s in shards)} values", flush=True)


def main() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (128, 128))
    shards = [torch.randn(5) for _ in range(200)]
    mp.spawn(worker, args=(shards,), nprocs=2)
