"""Per-worker seeding for the augmentations."""

import random

import numpy as np
import torch


def seed_worker():
    seed = torch.initial_seed() % 2**32
    np.random.seed(seed)
    random.seed(seed)
