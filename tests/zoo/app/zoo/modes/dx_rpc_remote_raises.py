"""torchrun, 2 ranks, torch.distributed.rpc: rank 0 (the trainer) asks rank 1 (a parameter-server style
vocabulary service) to encode a batch with `rpc_sync`; the service's table lacks a token of the batch, the
remote function raises there, and rpc re-raises it in rank 0."""

import torch.distributed.rpc as rpc

VOCAB = {"<pad>": 0, "the": 1, "cat": 2, "sat": 3, "on": 4, "mat": 5}


def encode(words: list[str]) -> list[int]:
    return [VOCAB[w] for w in words]


def run(rank: int, world_size: int) -> None:
    opts = rpc.TensorPipeRpcBackendOptions(rpc_timeout=10, init_method="env://")
    rpc.init_rpc(f"worker{rank}", rank=rank, world_size=world_size, rpc_backend_options=opts)
    if rank == 0:
        for batch in (["the", "cat", "sat"], ["the", "dog", "sat"]):
            ids = rpc.rpc_sync("worker1", encode, args=(batch,))
            print(f"encoded {batch} -> {ids}", flush=True)
    rpc.shutdown()
