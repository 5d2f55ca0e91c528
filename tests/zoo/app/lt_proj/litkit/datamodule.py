"""The data: a labelled table written as CSV lines, split into train, val and predict sets."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, Dataset


def make_rows(n: int, blank_at: int = -1) -> list[str]:
    g = torch.Generator().manual_seed(0)
    rows = []
    for i in range(n):
        x = torch.randn(8, generator=g)
        label = "" if i == blank_at else str(int(x.sum() > 0))
        rows.append(",".join(f"{v:.4f}" for v in x.tolist()) + "," + label)
    return rows


class CsvRows(Dataset):
    def __init__(self, rows: list[str]):
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int):
        *feats, label = self.rows[i].split(",")
        x = torch.tensor([float(v) for v in feats])
        return x, int(label)


class TableData(pl.LightningDataModule):
    def __init__(self, n: int = 64, batch_size: int = 8, workers: int = 0, blank_at: int = -1, fit_word="fit"):
        super().__init__()
        self.n, self.batch_size, self.workers = n, batch_size, workers
        self.blank_at, self.fit_word = blank_at, fit_word

    def setup(self, stage: str) -> None:
        rows = make_rows(self.n, self.blank_at)
        if stage == self.fit_word:
            self.train_set = CsvRows(rows[: self.n * 3 // 4])
            self.val_set = CsvRows(rows[self.n * 3 // 4 :])
        if stage == "predict":
            self.predict_set = CsvRows(rows[self.n * 3 // 4 :])

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size, num_workers=self.workers)

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=self.batch_size)

    def predict_dataloader(self):
        return DataLoader(self.predict_set, batch_size=self.batch_size)
