"""torchrun, 2 ranks, torch.distributed.rpc: rank 0 starts an evaluation on rank 1 with `rpc.remote` and keeps
the RRef; the loop's cleanup calls `rpc.shutdown()` before the summary reads the result with `to_here()`."""

import torch
import torch.distributed.rpc as rpc


def evaluate(n: int) -> torch.Tensor:
    return torch.arange(n, dtype=torch.float32).mean()


def run(rank: int, world_size: int) -> None:
    opts = rpc.TensorPipeRpcBackendOptions(rpc_timeout=10, init_method="env://")
    rpc.init_rpc(f"worker{rank}", rank=rank, world_size=world_size, rpc_backend_options=opts)
    score = None
    if rank == 0:
        score = rpc.remote("worker1", evaluate, args=(10,))
        print("evaluation started on worker1", flush=True)
    rpc.shutdown()
    if rank == 0:
        print(f"eval score {score.to_here().item():.3f}", flush=True)
