"""Sliding windows over one store's hourly series: `window` hours of features in, the next `horizon` hours out."""

import numpy as np
import torch
from torch.utils.data import Dataset

FEATURES = ["sales", "promo", "temp_c", "hour", "dow"]


class SalesWindows(Dataset):
    def __init__(self, frame, window: int, horizon: int, scaler=None, by_label: bool = False):
        self.frame = frame
        self.window = window
        self.horizon = horizon
        self.scaler = scaler
        self.by_label = by_label

    def __len__(self):
        return len(self.frame) - self.window - self.horizon + 1

    def __getitem__(self, i):
        w, h = self.window, self.horizon
        if self.by_label:
            # label-based: assumes the frame's index still runs 0..n-1
            x = self.frame.loc[i : i + w - 1, FEATURES].to_numpy(np.float32)
            y = np.array([self.frame.at[i + w + k, "sales"] for k in range(h)], np.float32)
            return torch.from_numpy(x), torch.from_numpy(y), torch.tensor(0)
        y = torch.tensor(self.frame["sales"].iloc[i + w : i + w + h].values, dtype=torch.float32)
        promo_next = torch.tensor(self.frame["promo"].iloc[i + w])
        part = self.frame.iloc[i : i + w]
        if self.scaler is not None:
            x = torch.from_numpy(self.scaler.transform(part))
        else:
            x = torch.from_numpy(part[FEATURES].to_numpy(np.float32))
        return x, y, promo_next
