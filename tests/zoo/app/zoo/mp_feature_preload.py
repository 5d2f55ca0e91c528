"""Preloaded into the forkserver by zoo/modes/mp_forkserver_preload_raises.py: warms the feature extractor's
thread count from the environment at import time."""

import os

import torch

FEATURE_THREADS = int(os.environ.get("FEATURE_THREADS", "auto"))
torch.set_num_threads(FEATURE_THREADS)
WINDOW = torch.hann_window(400)
