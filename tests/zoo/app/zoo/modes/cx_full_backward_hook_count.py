"""Gradient clipping by a module full backward hook that returns every gradient it was given, grad_input and
grad_output together, where autograd expects only a replacement for grad_input."""

import torch


def clip_grads(module, grad_input, grad_output):
    return tuple(g.clamp(-1, 1) if g is not None else None for g in grad_input + grad_output)


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
    model[0].register_full_backward_hook(clip_grads)
    x = torch.randn(32, 8, requires_grad=True)
    loss = model(x).pow(2).mean()
    print(f"loss {loss.item():.4f}", flush=True)
    loss.backward()
    print("backward done")
