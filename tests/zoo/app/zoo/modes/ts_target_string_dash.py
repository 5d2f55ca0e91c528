"""The target column of a sales sheet where the export writes an em dash for a closed day; the training set casts
it with `astype("float32")` before turning it into a tensor."""

import os
import tempfile

import pandas as pd
import torch


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="ts_sheet_"), "weekly.csv")
    with open(path, "w", encoding="utf-8") as f:
        f.write("week,store,units\n")
        for w in range(12):
            f.write(f"2024-W{w + 1:02d},S1,{'—' if w == 7 else 100 + 3 * w}\n")
    frame = pd.read_csv(path)
    print(f"{len(frame)} weeks, dtypes: {dict(frame.dtypes.astype(str))}", flush=True)
    y = torch.from_numpy(frame["units"].astype("float32").to_numpy())
    print("target", y.mean().item())
