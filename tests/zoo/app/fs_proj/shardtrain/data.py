"""Samples, their native scaling kernel and the per-rank loader (DistributedSampler, one worker)."""

import ctypes
import faulthandler
import mmap

import torch
from torch.utils.data import DataLoader, Dataset, DistributedSampler

# The scaling routine as x86-64 machine code, one variant per instruction set. The AVX-512 variant was never
# assembled for this build: its slot holds the trap (ud2) the generator writes for a variant it did not build.
KERNELS = {
    "generic": bytes([0xB8, 0x01, 0x00, 0x00, 0x00, 0xC3]),  # mov eax, 1; ret
    "avx512": bytes([0x0F, 0x0B]),  # ud2
}


class NativeScale:
    """Loads the variant for `isa` into an executable page on first use (in the process that calls it)."""

    def __init__(self, isa: str):
        self.isa = isa
        self._fn = None

    def __call__(self) -> int:
        if self._fn is None:
            prot = mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC
            self._page = mmap.mmap(-1, mmap.PAGESIZE, prot=prot)
            self._page.write(KERNELS[self.isa])
            addr = ctypes.addressof(ctypes.c_char.from_buffer(self._page))
            self._fn = ctypes.CFUNCTYPE(ctypes.c_int)(addr)
        return self._fn()


class Samples(Dataset):
    def __init__(self, n: int, width: int, scale: NativeScale):
        self.n, self.width, self.scale = n, width, scale

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> torch.Tensor:
        x = torch.full((self.width,), float(i % 7))
        return x * self.scale()


def worker_init(worker_id: int) -> None:
    faulthandler.enable()
    torch.manual_seed(torch.initial_seed() % 2**31 + worker_id)


def loader(n: int, width: int, isa: str) -> DataLoader:
    ds = Samples(n, width, NativeScale(isa))
    sampler = DistributedSampler(ds, shuffle=True, seed=0)
    return DataLoader(ds, batch_size=4, sampler=sampler, num_workers=1, worker_init_fn=worker_init)
