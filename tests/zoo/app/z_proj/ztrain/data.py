"""Variable-length sequences, a sampler that orders them by length, a bucketing batch sampler and a padding
collate_fn that returns a dict of tensors."""

import random

import torch
from torch.utils.data import Dataset, Sampler


class Sequences(Dataset):
    def __init__(self, n: int = 48, dim: int = 6, seed: int = 0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for i in range(n):
            length = 2 + i % 5
            x = torch.randn(length, dim, generator=g)
            self.items.append((x, int(x.sum() > 0)))

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int):
        return self.items[i]


class LengthSortedSampler(Sampler):
    """Indices ordered by sequence length, shuffled within equal lengths."""

    def __init__(self, data: Sequences, seed: int = 0):
        self.data, self.rng = data, random.Random(seed)

    def __iter__(self):
        keyed = [(len(self.data.items[i][0]), self.rng.random(), i) for i in range(len(self.data))]
        return iter(i for _, _, i in sorted(keyed))

    def __len__(self) -> int:
        return len(self.data)


class BucketBatchSampler(Sampler):
    """Batches of `batch` consecutive indices of the length-sorted order, the batches shuffled."""

    def __init__(self, sampler: Sampler, batch: int, seed: int = 0):
        self.sampler, self.batch, self.rng = sampler, batch, random.Random(seed)

    def __iter__(self):
        order = list(self.sampler)
        batches = [order[i : i + self.batch] for i in range(0, len(order), self.batch)]
        self.rng.shuffle(batches)
        return iter(batches)

    def __len__(self):
        return len(self.sampler) / self.batch


def make_collate(masks: bool):
    def collate(samples):
        longest = max(len(x) for x, _ in samples)
        x = torch.zeros(len(samples), longest, samples[0][0].shape[1])
        mask = torch.zeros(len(samples), longest, dtype=torch.bool)
        for i, (seq, _) in enumerate(samples):
            x[i, : len(seq)] = seq
            mask[i, : len(seq)] = True
        y = torch.tensor([label for _, label in samples])
        return {"x": x, "y": y, "mask": mask if masks else None}

    return collate
