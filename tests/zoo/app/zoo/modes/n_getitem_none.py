"""A dataset whose __getitem__ returns None for the rows its filter rejects (a corrupt record), batched by
default_collate in two workers."""

import torch
from torch.utils.data import DataLoader, Dataset


class Records(Dataset):
    def __len__(self):
        return 32

    def __getitem__(self, i):
        if i == 8:  # a record that fails its checksum: skipped by returning nothing
            return None
        return torch.full((4,), float(i))


def main() -> None:
    loader = DataLoader(Records(), batch_size=8, num_workers=2)
    total = 0.0
    for batch in loader:
        total += batch.sum().item()
    print(total)
