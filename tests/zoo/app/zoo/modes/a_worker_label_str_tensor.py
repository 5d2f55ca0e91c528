"""Labels read with the csv module (every field a str) and turned into a tensor per sample in 2 DataLoader
workers: `torch.tensor(row["label"])` of the string '2'."""

import csv
import os
import tempfile

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Tabular(Dataset):
    def __init__(self, path: str):
        with open(path, newline="") as f:
            self.rows = list(csv.DictReader(f))

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        row = self.rows[i]
        x = torch.tensor([float(row[f"f{k}"]) for k in range(8)])
        y = torch.tensor(row["label"])
        return x, y


def write_table(path: str, n: int) -> None:
    rng = np.random.default_rng(0)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([f"f{k}" for k in range(8)] + ["label"])
        for i in range(n):
            w.writerow([f"{v:.4f}" for v in rng.standard_normal(8)] + [i % 3])


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(), "train.csv")
    write_table(path, 64)
    loader = DataLoader(Tabular(path), batch_size=8, num_workers=2)
    model = torch.nn.Linear(8, 3)
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        print(f"loss {loss.item():.3f}", flush=True)
