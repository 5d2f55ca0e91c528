"""Checkpoints of a sweep scored in a ThreadPoolExecutor, each loaded with `mmap=True` to keep memory flat; one
checkpoint comes from an older exporter that saved with the legacy format (`_use_new_zipfile_serialization=False`).
`future.result()` re-raises the thread's error in the main."""

import os
import tempfile
from concurrent.futures import ThreadPoolExecutor

import torch


def score(path: str) -> float:
    state = torch.load(path, mmap=True, weights_only=True)
    return float(state["w"].abs().mean())


def main() -> None:
    out = tempfile.mkdtemp(prefix="ev_sweep_")
    paths = []
    for i in range(4):
        p = os.path.join(out, f"trial{i}.pt")
        torch.save({"w": torch.randn(64, 64)}, p, _use_new_zipfile_serialization=(i != 2))
        paths.append(p)
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="score") as pool:
        futures = {p: pool.submit(score, p) for p in paths}
        for p, fut in futures.items():
            print(os.path.basename(p), fut.result())
