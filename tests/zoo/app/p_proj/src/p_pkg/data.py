"""The project's data: a CSV table of features and a 0/1 label, and a windowed series dataset."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset


def read_table(path: str) -> tuple[torch.Tensor, torch.Tensor]:
    with open(path) as f:
        next(f)  # the header
        rows = [[float(v) for v in line.split(",")] for line in f if line.strip()]
    table = torch.tensor(rows)
    return table[:, :-1], table[:, -1].long()


class TabularDataModule(pl.LightningDataModule):
    def __init__(self, csv_path: str, batch_size: int = 16, num_workers: int = 0, val_rows: int = 16):
        super().__init__()
        self.csv_path, self.batch_size, self.num_workers, self.val_rows = csv_path, batch_size, num_workers, val_rows

    def setup(self, stage: str) -> None:
        x, y = read_table(self.csv_path)
        n = len(x) - self.val_rows
        self.train_set, self.val_set = TensorDataset(x[:n], y[:n]), TensorDataset(x[n:], y[n:])

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size, num_workers=self.num_workers, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=self.batch_size, num_workers=self.num_workers)


class WindowDataset(Dataset):
    """Sliding windows over a synthetic series: each sample is `window` steps of 6 features, labelled by its trend."""

    def __init__(self, series_len: int, window: int, seed: int = 0):
        if window > series_len:
            raise ValueError(f"window ({window}) is longer than the series ({series_len} steps)")
        g = torch.Generator().manual_seed(seed)
        self.series = torch.randn(series_len, 6, generator=g).cumsum(0)
        self.window = window

    def __len__(self):
        return len(self.series) - self.window + 1

    def __getitem__(self, i):
        w = self.series[i : i + self.window]
        return w.mean(0), int(w[-1].sum() > w[0].sum())


class LoaderModule(pl.LightningDataModule):
    """Wraps loaders Hydra built already (`_recursive_`, the default: their datasets are built first)."""

    def __init__(self, train: DataLoader, val: DataLoader):
        super().__init__()
        self.train, self.val = train, val

    def train_dataloader(self):
        return self.train

    def val_dataloader(self):
        return self.val
