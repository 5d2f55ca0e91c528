"""The program's data: sensor readings, log-transformed, and a fixed regression target."""

import torch
from torch.utils.data import Dataset


class Readings(Dataset):
    """64 rows of 8 positive readings; row 37 holds a dead sensor (0.0), which the log turns into -inf."""

    def __init__(self, n: int = 64, dead_row: int | None = 37) -> None:
        g = torch.Generator().manual_seed(0)
        self.x = torch.rand(n, 8, generator=g) + 0.5
        if dead_row is not None:
            self.x[dead_row, 3] = 0.0
        self.y = self.x.sum(1, keepdim=True)

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int):
        return torch.log(self.x[i]), self.y[i]
