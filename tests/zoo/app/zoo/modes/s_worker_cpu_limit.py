"""Each DataLoader worker caps its own CPU time at 1 s (worker_init_fn: RLIMIT_CPU, a guard written against
runaway decoders); decoding a sample takes longer, and the kernel ends the worker with SIGXCPU. The main
reports the dead worker."""

import resource

import torch
from torch.utils.data import DataLoader, Dataset


def cap_cpu(worker_id: int) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (1, resource.RLIM_INFINITY))
    torch.set_num_threads(1)


class Spectra(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        a = torch.randn(512, 512, generator=g)
        for _ in range(300):  # "decode": several seconds of CPU per sample
            a = torch.tanh(a @ a.T / 512.0)
        return a.sum(0)


def main() -> None:
    loader = DataLoader(Spectra(), batch_size=2, num_workers=2, worker_init_fn=cap_cpu)
    for batch in loader:
        print(batch.shape)
