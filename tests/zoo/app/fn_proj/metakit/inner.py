"""MAML's inner loop, per-sample gradients and a clipped per-sample loss, with torch.func."""

import torch
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap


def adapt(model, x, y, steps: int = 1, lr: float = 0.01):
    params = dict(model.named_parameters())
    for _ in range(steps):
        loss = F.mse_loss(functional_call(model, params, (x,)), y)
        grads = torch.autograd.grad(loss, list(params.values()), create_graph=True)
        params = {k: p - lr * g for (k, p), g in zip(params.items(), grads)}
    return params


def per_sample_grads(model, x, y):
    params = {k: v.detach() for k, v in model.named_parameters()}
    buffers = {k: v.detach() for k, v in model.named_buffers()}

    def loss(p, xi, yi):
        out = functional_call(model, (p, buffers), (xi.unsqueeze(0),))
        return F.mse_loss(out, yi.unsqueeze(0))

    return vmap(grad(loss), in_dims=(None, 0, 0))(params, x, y)


def sample_losses(model, x, y):
    """Per-sample squared errors, as grad's input for an influence score."""
    params = {k: v.detach() for k, v in model.named_parameters()}

    def losses(p):
        return (functional_call(model, p, (x,)) - y).pow(2).squeeze(1)

    return grad(losses)(params)


def clipped_error(model, x, y, cap: float = 4.0):
    params = {k: v.detach() for k, v in model.named_parameters()}

    def err(xi, yi):
        e = (functional_call(model, params, (xi.unsqueeze(0),)) - yi).abs().sum()
        return e.clamp(max=cap) if e.item() > cap else e

    return vmap(err)(x, y)
