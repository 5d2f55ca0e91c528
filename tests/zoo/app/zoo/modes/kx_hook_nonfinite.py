"""Main process: a gradient guard registered with `register_hook` raises inside backward on an overflowing step.

The program scales its loss by a fixed 2**120 (a hand-rolled loss scale for a later half-precision run); the
activations' gradients overflow float32 at the third batch, whose targets are far off. The guard hook raises
`FloatingPointError: non-finite gradient at block1 (step 2)` from inside the autograd engine's backward.
"""

import torch

LOSS_SCALE = 2.0**120


def guard(name: str, step: int):
    def check(grad: torch.Tensor) -> torch.Tensor:
        if not torch.isfinite(grad).all():
            raise FloatingPointError(f"non-finite gradient at {name} (step {step})")
        return grad

    return check


def main() -> None:
    torch.manual_seed(0)
    block1 = torch.nn.Linear(8, 32)
    head = torch.nn.Linear(32, 1)
    for step in range(5):
        x = torch.randn(16, 8)
        y = torch.randn(16, 1) * (1e9 if step == 2 else 1.0)
        h = torch.relu(block1(x))
        h.register_hook(guard("block1", step))
        loss = (head(h) - y).pow(2).mean()
        (loss * LOSS_SCALE).backward()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
