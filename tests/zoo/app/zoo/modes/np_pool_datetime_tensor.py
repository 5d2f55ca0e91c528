"""Per-sensor feature extraction in a fork multiprocessing Pool: each child turns its pandas frame into tensors;
the timestamps column (datetime64[ns]) goes to `torch.from_numpy` with the readings."""

import multiprocessing as mp

import numpy as np
import pandas as pd
import torch


def frame(sensor: int) -> pd.DataFrame:
    rng = np.random.default_rng(sensor)
    ts = pd.date_range("2024-03-01", periods=48, freq="30min")
    return pd.DataFrame({"ts": ts, "value": rng.normal(size=48)})


def extract(sensor: int) -> dict:
    df = frame(sensor)
    values = torch.from_numpy(df["value"].to_numpy())
    times = torch.from_numpy(df["ts"].to_numpy())
    return {"sensor": sensor, "mean": float(values.mean()), "span": int(times[-1] - times[0])}


def main() -> None:
    with mp.get_context("fork").Pool(2) as pool:
        for row in pool.map(extract, range(4)):
            print(row, flush=True)
