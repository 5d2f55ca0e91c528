"""torchrun, 2 gloo ranks: the int8 weights live in a file both ranks memory-map (torch.from_file, shared) and
wrap in a dequantising subclass. After the first step rank 0 re-exports the packed weights by opening the same
file with "wb" (truncating it to 0 bytes before writing); rank 1, past the barrier, dequantises from its mapping
of the now-empty file and dies by SIGBUS.
"""

import os
import tempfile

import torch
import torch.distributed as dist
from torch.utils._pytree import tree_map

N = 64 * 1024


class MappedInt8(torch.Tensor):
    @staticmethod
    def __new__(cls, q: torch.Tensor, scale: float):
        out = torch.Tensor._make_wrapper_subclass(cls, q.shape, dtype=torch.float32, device=q.device)
        out.q, out.scale = q, scale
        return out

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        def unwrap(t):
            return t.q.float() * t.scale if isinstance(t, MappedInt8) else t

        return func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs or {}))


def weights_path() -> str:
    return os.path.join(tempfile.gettempdir(), f"tf_int8_{os.environ['MASTER_PORT']}.bin")


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo")
    path = weights_path()
    if rank == 0:
        with open(path, "wb") as f:
            f.write(bytes(range(128)) * (N // 128))
    dist.barrier()
    w = MappedInt8(torch.from_file(path, shared=True, size=N, dtype=torch.int8).view(256, 256), 0.01)
    x = torch.randn(4, 256)
    y = (x @ w).sum()
    dist.all_reduce(y)
    print(f"[rank{rank}] step 0: {y.item():.3f}", flush=True)
    if rank == 0:
        with open(path, "wb") as f:  # re-export: truncates the file both ranks have mapped
            print("[rank0] re-exporting packed weights", flush=True)
            dist.barrier()
            dist.barrier()
            f.write(bytes(range(128)) * (N // 128))
    else:
        dist.barrier()
        y = (x @ w).sum()
        dist.barrier()
    dist.all_reduce(y)
    print(f"[rank{rank}] step 1: {y.item():.3f}", flush=True)
    dist.destroy_process_group()
