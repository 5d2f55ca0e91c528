"""Two activation trackers nested (one for the whole step, one for the attention block) share the class's lock.
Inside the inner tracker's handler, its statistics op (`out.abs()`) runs under the outer tracker, which waits for
the lock the inner one holds: a self-deadlock of a non-reentrant threading.Lock, the step never finishes.
"""

import threading

import torch
from torch.utils._python_dispatch import TorchDispatchMode


class FlopTracker(TorchDispatchMode):
    lock = threading.Lock()

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name, self.flops, self.peak = name, 0, 0.0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if isinstance(out, torch.Tensor) and out.is_floating_point():
            with FlopTracker.lock:
                if func is torch.ops.aten.mm.default:
                    a, b = args
                    self.flops += 2 * a.shape[0] * a.shape[1] * b.shape[1]
                self.peak = max(self.peak, float(out.abs().max()))
        return out


def main() -> None:
    q, k = torch.randn(8, 16), torch.randn(16, 8)
    with FlopTracker("step") as step:
        h = q @ k
        print(f"step so far: {step.flops} flops", flush=True)
        with FlopTracker("attention") as attn:
            scores = h @ h
        print(f"attention: {attn.flops} flops, {scores.shape}", flush=True)
