"""A sampling profiler of the program's (a SIGPROF interval timer on CPU time, as statistical profilers do): the
timer is armed when this module is imported, its handler installed in main() only; the DataLoader's workers are
spawned, import the module again to unpickle the dataset, and the first SIGPROF ends a worker."""

import collections
import signal

import torch
from torch.utils.data import DataLoader, Dataset

SAMPLES: collections.Counter = collections.Counter()
signal.setitimer(signal.ITIMER_PROF, 0.01, 0.01)


def sample(signum, frame) -> None:
    SAMPLES[(frame.f_code.co_filename, frame.f_code.co_name)] += 1


class Spectra(Dataset):
    def __len__(self) -> int:
        return 64

    def __getitem__(self, i: int) -> torch.Tensor:
        g = torch.Generator().manual_seed(i)
        x = torch.randn(256, 256, generator=g)
        for _ in range(20):
            x = torch.tanh(x @ x.T / 256)
        return x.mean(0)


def main() -> None:
    signal.signal(signal.SIGPROF, sample)
    loader = DataLoader(Spectra(), batch_size=8, num_workers=2, multiprocessing_context="spawn")
    total = 0.0
    try:
        for i, batch in enumerate(loader):
            total += float(batch.sum())
            print("batch", i, flush=True)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    print("sum", total, "top samples", SAMPLES.most_common(3), flush=True)
