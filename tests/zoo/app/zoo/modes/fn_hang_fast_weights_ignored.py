"""A test-time adaptation loop in MAML style: fast weights are taken from the meta-trained model's checkpoint,
which was trained with weight_norm (keys `0.weight_g`, `0.weight_v`, not `0.weight`), and adapted with
torch.func.functional_call on a plain copy until the support loss drops under a tolerance. functional_call
(strict=False, its default) ignores the keys the module does not have and runs its own weights; only the biases
adapt (the other gradients are None, allow_unused=True), the loss stalls above the tolerance and the loop never
ends."""

import torch
import torch.nn.functional as F
from torch import nn
from torch.func import functional_call
from torch.nn.utils import weight_norm


def net() -> nn.Module:
    return nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))


def adapt_until(model: nn.Module, fast: dict, x, y, tol: float = 1e-3, lr: float = 0.1):
    step = 0
    while True:
        loss = F.mse_loss(functional_call(model, fast, (x,)), y)
        if loss.item() < tol:
            return fast, step
        grads = torch.autograd.grad(loss, list(fast.values()), allow_unused=True)
        fast = {k: p - lr * (g if g is not None else torch.zeros_like(p)) for (k, p), g in zip(fast.items(), grads)}
        step += 1
        if step % 5000 == 0:
            print(f"adapt step {step} loss {loss.item():.4f}", flush=True)


def main() -> None:
    torch.manual_seed(0)
    torch.set_num_threads(1)
    meta = net()
    weight_norm(meta[0])
    weight_norm(meta[2])
    checkpoint = meta.state_dict()
    fast = {k: v.detach().clone().requires_grad_() for k, v in checkpoint.items()}
    x, y = torch.randn(32, 4), torch.randn(32, 1)
    print("adapting to the support set", flush=True)
    fast, steps = adapt_until(net(), fast, x, y)
    print(f"adapted in {steps} steps")
