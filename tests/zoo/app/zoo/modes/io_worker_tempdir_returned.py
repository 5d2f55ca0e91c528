"""The validation set is unpacked into a `tempfile.TemporaryDirectory()` inside the function that builds its
DataLoader; the function returns the loader from inside the `with` block, so the folder (and every file in it)
is removed before the loader's 2 workers open their first item."""

import os
import tempfile

import torch
from torch.utils.data import DataLoader, Dataset


class Files(Dataset):
    def __init__(self, paths: list) -> None:
        self.paths = paths

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, i: int) -> torch.Tensor:
        return torch.load(self.paths[i], weights_only=True)


def val_loader() -> DataLoader:
    with tempfile.TemporaryDirectory(prefix="io-val-") as d:
        paths = []
        for i in range(16):
            paths.append(os.path.join(d, f"val{i:03d}.pt"))
            torch.save(torch.randn(8), paths[-1])
        print(f"unpacked {len(paths)} validation items", flush=True)
        return DataLoader(Files(paths), batch_size=4, num_workers=2)


def main() -> None:
    model = torch.nn.Linear(8, 2)
    for i, x in enumerate(val_loader()):
        print(f"val batch {i} {tuple(model(x).shape)}", flush=True)
