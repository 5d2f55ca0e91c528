"""Seeding every generator the program uses from one run name or one integer."""

import hashlib
import random

import numpy as np
import torch


def seed_from_name(name: str) -> int:
    # a stable seed per experiment name, whatever PYTHONHASHSEED is
    return int(hashlib.sha256(name.encode()).hexdigest()[:20], 16)


def seed_everything(seed: int) -> int:
    torch.manual_seed(seed)
    random.seed(seed)
    np.random.seed(seed % 2**32)
    return seed
