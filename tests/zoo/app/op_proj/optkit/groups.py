"""Parameter groups: weight decay on weights only, none on biases and norms."""

import torch
from torch import nn


def decay_groups(model: nn.Module, weight_decay: float) -> list[dict]:
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        (no_decay if name.endswith("bias") or p.ndim == 1 else decay).append(p)
    return [
        {"params": decay, "weight_decay": weight_decay},
        {"params": no_decay, "weight_decay": 0.0},
    ]


def make_optimizer(model: nn.Module, lr: float, weight_decay: float, split: bool) -> torch.optim.Optimizer:
    params = decay_groups(model, weight_decay) if split else model.parameters()
    return torch.optim.AdamW(params, lr=lr, weight_decay=weight_decay)


def resume(opt: torch.optim.Optimizer, path: str) -> None:
    state = torch.load(path, weights_only=True)
    opt.load_state_dict(state["optimizer"])
