"""A dataset featurises each clip with a compiled (fullgraph=True) function, called in 2 DataLoader workers; the
function turns its float energies into a Python list (`tolist()`) to pick peaks, which dynamo refuses to trace
under fullgraph."""

import torch
from torch.utils.data import DataLoader, Dataset


def featurize(clip: torch.Tensor) -> torch.Tensor:
    energy = clip.pow(2).mean(-1)
    peaks = [i for i, e in enumerate(energy.tolist()) if e > 1.0]
    return torch.cat([energy, torch.tensor([float(len(peaks))])])


featurize_c = torch.compile(featurize, backend="eager", fullgraph=True)


class Clips(Dataset):
    def __len__(self) -> int:
        return 64

    def __getitem__(self, i: int) -> torch.Tensor:
        clip = torch.randn(10, 32, generator=torch.Generator().manual_seed(i))
        return featurize_c(clip)


def main() -> None:
    loader = DataLoader(Clips(), batch_size=8, num_workers=2)
    for i, feats in enumerate(loader):
        print(f"batch {i}: {tuple(feats.shape)}", flush=True)
