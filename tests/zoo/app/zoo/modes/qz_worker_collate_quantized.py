"""A calibration set kept as quint8 tensors to save memory (`torch.quantize_per_tensor` in the Dataset); two
DataLoader workers batch them with the default collate, which cannot stack quantized tensors."""

import torch
from torch.utils.data import DataLoader, Dataset


class Frames(Dataset):
    def __init__(self, n: int = 16) -> None:
        self.frames = torch.rand(n, 3, 8, 8, generator=torch.Generator().manual_seed(0))

    def __len__(self) -> int:
        return len(self.frames)

    def __getitem__(self, i: int) -> torch.Tensor:
        return torch.quantize_per_tensor(self.frames[i], scale=1 / 255, zero_point=0, dtype=torch.quint8)


def main() -> None:
    loader = DataLoader(Frames(), batch_size=4, num_workers=2)
    print("calibration frames as quint8, 2 workers", flush=True)
    for i, batch in enumerate(loader):
        print(f"batch {i}: {tuple(batch.shape)}")
