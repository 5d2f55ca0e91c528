"""torchrun, 2 gloo ranks: each rank normalises its feature shard in place with the program's C code, given
`tensor.data_ptr()` and the shard length the config says; rank 1's shard came out empty (the split gave it no
rows), so data_ptr() is 0 and the C loop writes through a NULL pointer: rank 1 dies by SIGSEGV while rank 0 waits
in all_reduce; torchrun then stops rank 0."""

import torch
import torch.distributed as dist

from zoo.nc_native import load

ROWS_PER_RANK = 512


def shard(rank: int) -> torch.Tensor:
    table = torch.randn(ROWS_PER_RANK, 8)  # the export wrote one rank's rows, not world_size ranks'
    return table[rank * ROWS_PER_RANK : (rank + 1) * ROWS_PER_RANK].flatten().clone()


def run(rank: int, world_size: int) -> None:
    torch.set_num_threads(1)
    lib = load()
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    t = torch.ones(4)
    dist.all_reduce(t)
    feats = shard(rank)
    lib.nc_normalize(feats.data_ptr(), ROWS_PER_RANK * 8, 0.0, 1.0)
    dist.all_reduce(t)
    print(f"rank {rank}: {t}", flush=True)
    dist.destroy_process_group()
