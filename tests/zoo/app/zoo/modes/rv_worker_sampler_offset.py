"""A resumable sampler: it skips the samples of the batches already seen (`offset`, restored from the checkpoint).
The checkpoint was written by a run over the full 160-sample set; the requeued run reads a 128-sample split, and
the sampler counts on from the offset without wrapping, so 2 DataLoader workers are given indices past the end."""

import os
import tempfile

import torch
from torch.utils.data import DataLoader, Dataset, Sampler


class Samples(Dataset):
    def __init__(self, n: int) -> None:
        self.x = torch.randn(n, 8)

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int) -> torch.Tensor:
        return self.x[i] * 2


class ResumableSampler(Sampler):
    def __init__(self, n: int, offset: int = 0) -> None:
        self.n, self.offset = n, offset

    def __len__(self) -> int:
        return self.n

    def __iter__(self):
        for k in range(self.n - self.offset % self.n):
            yield self.offset + k


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="rv-"), "last.pt")
    torch.save({"seen": 140}, path)
    print("resuming after 140 samples", flush=True)
    data = Samples(128)
    sampler = ResumableSampler(len(data), torch.load(path)["seen"])
    loader = DataLoader(data, batch_size=4, sampler=sampler, num_workers=2)
    for i, batch in enumerate(loader):
        print(f"batch {i} {tuple(batch.shape)}", flush=True)
