"""Train/validation indices saved once (from a split of 120 feature rows) and reused after the feature
array was rebuilt without the rows that failed quality control: Subset hands the stale indices to the
array-backed dataset, and a worker meets one past its end."""

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, Subset


class Features(Dataset):
    def __init__(self, rows: np.ndarray):
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i):
        return torch.from_numpy(self.rows[i])


def saved_split(n: int) -> tuple[list[int], list[int]]:
    perm = np.random.default_rng(0).permutation(n).tolist()
    return perm[: int(0.8 * n)], perm[int(0.8 * n) :]


def main() -> None:
    train_idx, val_idx = saved_split(120)
    rows = np.random.default_rng(1).standard_normal((120, 8)).astype(np.float32)
    rows = rows[np.abs(rows[:, 0]) < 1.5]
    print(f"{len(rows)} rows passed QC; {len(train_idx)} train indices", flush=True)
    loader = DataLoader(Subset(Features(rows), train_idx), batch_size=16, num_workers=2)
    for step, x in enumerate(loader):
        print(f"step {step} mean {x.mean().item():.3f}", flush=True)
