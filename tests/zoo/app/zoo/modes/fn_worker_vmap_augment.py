"""A patch augmentation vectorised with torch.func.vmap inside the Dataset, run in 2 DataLoader workers: each
patch is flipped when it is brighter than average, an `if` on a tensor under vmap."""

import torch
from torch.func import vmap
from torch.utils.data import DataLoader, Dataset


def flip_bright(patch: torch.Tensor) -> torch.Tensor:
    if patch.mean() > 0:
        return patch.flip(-1)
    return patch


class Patches(Dataset):
    def __len__(self) -> int:
        return 32

    def __getitem__(self, i: int) -> torch.Tensor:
        g = torch.Generator().manual_seed(i)
        image = torch.randn(16, 8, 8, generator=g)
        return vmap(flip_bright)(image)


def main() -> None:
    loader = DataLoader(Patches(), batch_size=4, num_workers=2)
    print("augmenting patches in 2 workers", flush=True)
    for step, batch in enumerate(loader):
        print(f"batch {step} {tuple(batch.shape)}")
