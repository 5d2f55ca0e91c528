"""torchrun, 2 gloo ranks: each rank reads its shard into a native buffer (calloc through ctypes) that frees
itself in `__del__`. Rank 1's shard format has an 8-byte header, which the reader skips by advancing its own
pointer; when the buffer of epoch 0 is replaced, `__del__` frees the advanced pointer and glibc aborts rank 1
(`free(): invalid pointer`, SIGABRT) while rank 0 waits in all_reduce; torchrun then stops rank 0."""

import ctypes

import torch
import torch.distributed as dist

LIBC = ctypes.CDLL(None)
LIBC.calloc.restype = ctypes.c_void_p
LIBC.calloc.argtypes = [ctypes.c_size_t, ctypes.c_size_t]
LIBC.free.argtypes = [ctypes.c_void_p]


class NativeShard:
    def __init__(self, nbytes: int):
        self.ptr = LIBC.calloc(1, nbytes)
        self.nbytes = nbytes

    def skip_header(self, n: int) -> None:
        self.ptr += n
        self.nbytes -= n

    def tensor(self) -> torch.Tensor:
        raw = (ctypes.c_char * self.nbytes).from_address(self.ptr)
        return torch.frombuffer(bytearray(raw), dtype=torch.uint8).float()

    def __del__(self):
        LIBC.free(self.ptr)


def load_shard(rank: int, epoch: int) -> NativeShard:
    shard = NativeShard(4096 + 8)
    if rank == 1:
        shard.skip_header(8)  # rank 1's files carry a header
    return shard


def run(rank: int, world_size: int) -> None:
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    model = torch.nn.Linear(8, 1)
    shard = None
    for epoch in range(3):
        shard = load_shard(rank, epoch)
        x = shard.tensor().view(-1, 8)[:16]
        loss = model(x).pow(2).mean()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        print(f"[rank{rank}] epoch {epoch} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
