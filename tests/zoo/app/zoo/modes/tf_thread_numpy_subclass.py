"""A histogram-upload thread converts the quantised weights to numpy; the weights are an int8 wrapper subclass,
which .numpy() refuses. The thread dies (`Exception in thread histograms`); the training loop, which waits for
the upload before the next epoch, then gives up on it with its own TimeoutError.
"""

import threading

import torch
from torch.utils._pytree import tree_map


class Int8Weight(torch.Tensor):
    @staticmethod
    def __new__(cls, q: torch.Tensor, scale: float):
        out = torch.Tensor._make_wrapper_subclass(cls, q.shape, dtype=torch.float32, device=q.device)
        out.q, out.scale = q, scale
        return out

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        def unwrap(t):
            return t.q.float() * t.scale if isinstance(t, Int8Weight) else t

        return func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs or {}))


def upload_histograms(weights: dict, done: threading.Event) -> None:
    for name, w in weights.items():
        values = w.cpu().numpy()
        print(f"histogram {name}: {values.min():.3f}..{values.max():.3f}", flush=True)
    done.set()


def main() -> None:
    q = torch.randint(-127, 128, (16, 8), dtype=torch.int8, generator=torch.Generator().manual_seed(0))
    weights = {"fc1": Int8Weight(q, 0.02)}
    x = torch.randn(4, 8)
    for epoch in range(2):
        loss = (x @ weights["fc1"].t()).pow(2).mean()
        print(f"epoch {epoch}: loss {loss.item():.4f}", flush=True)
        done = threading.Event()
        threading.Thread(target=upload_histograms, args=(weights, done), name="histograms").start()
        if not done.wait(timeout=3):
            raise TimeoutError(f"epoch {epoch}: histogram upload did not finish within 3 s")
