"""Evaluation embeds each test-time-augmented view in a thread pool, inside `torch.no_grad()` on the main thread,
and hands each embedding to a numpy index through DLPack. Grad mode is thread-local: in the pool's threads the
model records a graph, and the export of a tensor that requires grad is refused.
"""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch

torch.manual_seed(0)
MODEL = torch.nn.Sequential(torch.nn.Linear(12, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4)).eval()


def embed_view(view: torch.Tensor) -> np.ndarray:
    emb = MODEL(view)
    return np.from_dlpack(emb)


def main() -> None:
    x = torch.randn(8, 12)
    views = [x, x.flip(1), x * 0.9]
    with torch.no_grad():
        print(f"main thread: requires_grad={MODEL(x).requires_grad}", flush=True)
        with ThreadPoolExecutor(max_workers=2, thread_name_prefix="tta") as pool:
            embs = list(pool.map(embed_view, views))
    print(f"index holds {sum(len(e) for e in embs)} vectors", flush=True)
