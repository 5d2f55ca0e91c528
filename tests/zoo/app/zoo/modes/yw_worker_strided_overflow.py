"""A fork DataLoader worker reads a window view whose byte stride overflowed int32: SIGSEGV in the worker.

Each recording's header is read with np.frombuffer(dtype="<i4"), so its fields are numpy int32 scalars; the
program's window stride in bytes, sample_rate * channels * itemsize * hop_s, is computed from them and stays int32.
For the 64-channel recording (item 5) the product passes 2**31 and wraps to about -2.1e9; as_strided takes it as
given and the worker's read of window 1 lands 2 GB below the buffer.
"""

import faulthandler

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def header(channels: int) -> np.ndarray:
    return np.frombuffer(np.array([48_000, channels, 4, 180], dtype="<i4").tobytes(), dtype="<i4")


class Segments(Dataset):
    """Three 3-minute windows per recording, as one strided view over the samples (no copy)."""

    def __len__(self) -> int:
        return 8

    def __getitem__(self, i: int) -> torch.Tensor:
        sample_rate, channels, itemsize, hop_s = header(64 if i == 5 else 2)
        samples = np.arange(4096, dtype=np.float32)
        stride = sample_rate * channels * itemsize * hop_s  # bytes from one window to the next
        windows = np.lib.stride_tricks.as_strided(samples, shape=(3, 256), strides=(int(stride), 4))
        return torch.from_numpy(windows.mean(axis=1))


def main() -> None:
    faulthandler.enable()
    loader = DataLoader(Segments(), batch_size=2, num_workers=2, multiprocessing_context="fork")
    for step, batch in enumerate(loader):
        print(f"batch {step} mean {batch.mean().item():.2f}", flush=True)
