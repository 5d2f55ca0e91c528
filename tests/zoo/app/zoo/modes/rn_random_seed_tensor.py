"""One seed drawn with torch and handed to every library: `random.seed` given the 0-d tensor itself, which
Python (3.11 on) refuses instead of hashing it."""

import random

import numpy as np
import torch


def seed_all(seed: torch.Tensor) -> None:
    torch.manual_seed(int(seed))
    np.random.seed(int(seed))
    random.seed(seed)


def main() -> None:
    seed = torch.randint(0, 2**31 - 1, ())
    print(f"drawn seed {int(seed)}")
    seed_all(seed)
    print(random.random())
