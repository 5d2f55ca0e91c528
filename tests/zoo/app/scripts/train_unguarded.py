"""A training script without a main guard whose DataLoader starts spawn workers: each worker re-runs it."""

import multiprocessing

from torch.utils.data import DataLoader
from zoo.data import Samples

spawn = multiprocessing.get_context("spawn")
for _batch in DataLoader(Samples(), batch_size=2, num_workers=1, multiprocessing_context=spawn):
    pass
