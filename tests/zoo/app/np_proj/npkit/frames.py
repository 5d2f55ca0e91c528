"""The annotation sheet as a pandas DataFrame, and its labels as a tensor."""

import numpy as np
import pandas as pd
import torch


def sheet(n: int = 64, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    species = rng.choice(["ant", "bee", "wasp"], size=n)
    return pd.DataFrame({"f0": rng.normal(size=n), "f1": rng.normal(size=n), "species": species})


def features(frame: pd.DataFrame) -> torch.Tensor:
    return torch.from_numpy(frame[["f0", "f1"]].to_numpy(dtype=np.float32))


def labels(frame: pd.DataFrame) -> torch.Tensor:
    """Class ids from the species column, by pandas' categorical codes (compact: int8)."""
    codes = frame["species"].astype("category").cat.codes
    return torch.from_numpy(codes.to_numpy())
