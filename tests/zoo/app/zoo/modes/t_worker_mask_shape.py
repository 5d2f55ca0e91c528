"""2 DataLoader workers; each sample's keep-mask is computed from the raw tokens, then __getitem__ prepends the
BOS token, so the mask is one short: `tokens[keep]` raises IndexError (`The shape of the mask [5] at index 0 does
not match the shape of the indexed tensor [6] at index 0`) in worker 0, re-raised by the main."""

import torch
from torch.utils.data import DataLoader, Dataset

BOS, PAD = 1, 0


class Sentences(Dataset):
    def __init__(self):
        self.rows = [torch.tensor([5, 9, 2, 0, 0]), torch.tensor([7, 3, 8, 4, 0])] * 3
        self.keep = [row != PAD for row in self.rows]

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int) -> torch.Tensor:
        tokens = torch.cat([torch.tensor([BOS]), self.rows[i]])
        return tokens[self.keep[i]]


def main() -> None:
    loader = DataLoader(Sentences(), batch_size=1, num_workers=2)
    for batch in loader:
        print(batch.shape)
