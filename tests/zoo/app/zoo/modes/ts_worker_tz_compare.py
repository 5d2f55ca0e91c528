"""A per-day Dataset over an hourly sales frame whose timestamps are naive (local export), read by 2 DataLoader
workers; each item selects its day with the holiday calendar's bounds, which are tz-aware (UTC)."""

import numpy as np
import pandas as pd
import torch
from torch.utils.data import DataLoader, Dataset


class DailySales(Dataset):
    def __init__(self, frame: pd.DataFrame, days: pd.DatetimeIndex):
        self.frame = frame
        self.days = days

    def __len__(self):
        return len(self.days)

    def __getitem__(self, i):
        start = self.days[i]
        day = self.frame[(self.frame["ts"] >= start) & (self.frame["ts"] < start + pd.Timedelta(days=1))]
        return torch.tensor(day["sales"].to_numpy(np.float32))


def main() -> None:
    hours = pd.date_range("2024-03-01", periods=24 * 14, freq="h")
    frame = pd.DataFrame({"ts": hours, "sales": np.random.default_rng(0).normal(50, 5, len(hours))})
    days = pd.date_range("2024-03-01", periods=14, freq="D", tz="UTC")  # from the holiday calendar
    loader = DataLoader(DailySales(frame, days), batch_size=4, num_workers=2)
    for k, batch in enumerate(loader):
        print(f"batch {k} {tuple(batch.shape)}", flush=True)
