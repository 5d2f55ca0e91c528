"""torch.use_deterministic_algorithms(True) set once for the whole run; the dataset's patch mask is built with
`Tensor.put_` in 2 DataLoader workers (forked, so the setting comes with them), and put_ has no deterministic
implementation here."""

import torch
from torch.utils.data import DataLoader, Dataset


class MaskedPatches(Dataset):
    def __len__(self) -> int:
        return 16

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        g = torch.Generator().manual_seed(i)
        x = torch.randn(64, generator=g)
        mask = torch.zeros(64)
        hidden = torch.randperm(64, generator=g)[:16]
        mask.put_(hidden, torch.ones(16))
        return x * (1 - mask), mask


def main() -> None:
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)
    print("deterministic algorithms on")
    loader = DataLoader(MaskedPatches(), batch_size=4, num_workers=2)
    for i, (_x, mask) in enumerate(loader):
        print(f"batch {i}: {int(mask.sum())} masked")
