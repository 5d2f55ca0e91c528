"""To catch NaNs at their source, each DataLoader worker unmasks floating point exceptions (feenableexcept via
ctypes, FE_INVALID | FE_DIVBYZERO); a silent (all-zero) clip's normalisation by its std computes 0/0 inside
torch's kernel, the CPU traps and the worker dies by SIGFPE."""

import ctypes
import ctypes.util

import torch
from torch.utils.data import DataLoader, Dataset

FE_DIVBYZERO, FE_INVALID = 0x04, 0x01


def trap_fp(worker_id: int) -> None:
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    libm.feenableexcept(FE_INVALID | FE_DIVBYZERO)


class Clips(Dataset):
    def __len__(self) -> int:
        return 16

    def __getitem__(self, i: int) -> torch.Tensor:
        clip = torch.randn(4000) if i != 11 else torch.zeros(4000)  # clip 11 is silence
        return (clip - clip.mean()) / clip.std()


def main() -> None:
    loader = DataLoader(Clips(), batch_size=4, num_workers=2, worker_init_fn=trap_fp)
    for b, batch in enumerate(loader):
        print(f"batch {b} rms {batch.pow(2).mean().sqrt().item():.3f}", flush=True)
