"""Per-worker seeding for the augmentations."""

import random

import numpy as np
import torch


def seed_worker():
    seed = torch.initial_seed() % 2**32
    np.random.seed(seed)
    random.seed(seed)


def limit_threads(worker_id: int, budget: int, workers: int) -> None:
    """Split the job's CPU budget between the workers (OpenCV-style decoders size their pools from torch)."""
    torch.set_num_threads(budget // workers)
