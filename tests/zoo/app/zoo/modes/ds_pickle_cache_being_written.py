"""The feature cache is a pickle the main process writes from a background thread while training starts; the
persistent spawn workers load it in worker_init_fn, before the thread has written its second half."""

import os
import pickle
import tempfile
import threading
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

CACHE = os.path.join(tempfile.gettempdir(), f"ds_features_{os.getpid()}.pkl")
FEATURES: dict = {}


def load_cache(worker_id: int) -> None:
    with open(os.environ["DS_FEATURE_CACHE"], "rb") as f:
        FEATURES.update(pickle.load(f))


class Cached(Dataset):
    def __len__(self) -> int:
        return 32

    def __getitem__(self, i: int):
        return torch.from_numpy(FEATURES[i]), i % 2


def write_cache(first_half_written: threading.Event) -> None:
    rng = np.random.default_rng(5)
    blob = pickle.dumps({i: rng.standard_normal(16).astype(np.float32) for i in range(32)})
    with open(CACHE, "wb") as f:
        f.write(blob[: len(blob) // 2])
        f.flush()
        first_half_written.set()
        time.sleep(12)  # the rest of the features are still being computed
        f.write(blob[len(blob) // 2 :])


def main() -> None:
    os.environ["DS_FEATURE_CACHE"] = CACHE
    started = threading.Event()
    threading.Thread(target=write_cache, args=(started,), daemon=True).start()
    started.wait()
    loader = DataLoader(
        Cached(),
        batch_size=8,
        num_workers=2,
        persistent_workers=True,
        worker_init_fn=load_cache,
        multiprocessing_context="spawn",
    )
    model = torch.nn.Linear(16, 2)
    for epoch in range(2):
        for x, y in loader:
            torch.nn.functional.cross_entropy(model(x), y).backward()
        print(f"epoch {epoch} done", flush=True)
