"""Feature engineering on the frame: calendar columns, lags and a standard scaler."""

import numpy as np
import pandas as pd


def add_calendar(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.copy()
    frame["hour"] = frame["ts"].dt.hour / 23.0
    frame["dow"] = frame["ts"].dt.dayofweek / 6.0
    return frame


def add_lag(frame: pd.DataFrame, lag: int) -> pd.DataFrame:
    frame = frame.copy()
    frame[f"sales_lag{lag}"] = frame["sales"].shift(lag).bfill()
    return frame


class Scaler:
    """Fitted once in the main on the training frame, then applied to each window in the loader's workers."""

    def __init__(self):
        self.columns = None
        self.mean = None
        self.std = None

    def fit(self, frame: pd.DataFrame, columns: list) -> "Scaler":
        self.columns = list(columns)
        self.mean = frame[self.columns].mean().to_numpy(np.float32)
        self.std = frame[self.columns].std(ddof=0).to_numpy(np.float32)
        return self

    def transform(self, window: pd.DataFrame) -> np.ndarray:
        return (window[self.columns].to_numpy(np.float32) - self.mean) / self.std
