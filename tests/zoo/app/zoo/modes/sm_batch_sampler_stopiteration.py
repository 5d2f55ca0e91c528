"""A two-source BatchSampler: each batch takes 6 indices from the large source and 2 from the small one,
pulled with next() inside the generator __iter__; when the small source runs out first, its StopIteration
inside the generator becomes PEP 479's RuntimeError in the main's DataLoader."""

import torch
from torch.utils.data import DataLoader, Sampler, TensorDataset


class MixedBatches(Sampler):
    def __init__(self, n_large: int, n_small: int):
        self.large = list(range(n_large))
        self.small = list(range(n_large, n_large + n_small))

    def __len__(self) -> int:
        return len(self.large) // 6

    def __iter__(self):
        large, small = iter(self.large), iter(self.small)
        for _ in range(len(self)):
            yield [next(large) for _ in range(6)] + [next(small), next(small)]


def main() -> None:
    data = TensorDataset(torch.randn(60, 4))
    loader = DataLoader(data, batch_sampler=MixedBatches(48, 10))
    for step, (x,) in enumerate(loader):
        print(f"step {step} batch {x.shape[0]}", flush=True)
