"""A scripted peak normaliser raises for an empty clip; it runs in 2 DataLoader workers."""

import torch
from torch.utils.data import DataLoader, Dataset


@torch.jit.script
def peak_normalize(clip: torch.Tensor) -> torch.Tensor:
    if clip.numel() == 0:
        raise ValueError("empty clip: nothing to normalise")
    return clip / clip.abs().max().clamp(min=1e-6)


class Clips(Dataset):
    def __init__(self):
        g = torch.Generator().manual_seed(0)
        # clip 5 was trimmed to nothing by the silence remover
        self.clips = [torch.randn(0 if i == 5 else 160, generator=g) for i in range(8)]

    def __len__(self):
        return len(self.clips)

    def __getitem__(self, i):
        return peak_normalize(self.clips[i]).mean()


def main() -> None:
    torch.set_num_threads(1)
    for step, batch in enumerate(DataLoader(Clips(), batch_size=2, num_workers=2)):
        print(f"batch {step}: {batch.tolist()}", flush=True)
