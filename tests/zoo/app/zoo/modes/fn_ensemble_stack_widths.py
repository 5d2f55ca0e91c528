"""Model ensembling with torch.func.stack_module_state over a list of members built from a hyperparameter sweep
(hidden widths 32, 32, 48): stacking needs every member's parameters to be of one shape."""

import copy

import torch
from torch import nn
from torch.func import functional_call, stack_module_state, vmap


def member(hidden: int) -> nn.Module:
    return nn.Sequential(nn.Linear(10, hidden), nn.ReLU(), nn.Linear(hidden, 3))


def main() -> None:
    members = [member(h) for h in (32, 32, 48)]
    params, buffers = stack_module_state(members)
    base = copy.deepcopy(members[0]).to("meta")

    def call(p, b, x):
        return functional_call(base, (p, b), (x,))

    out = vmap(call, in_dims=(0, 0, None))(params, buffers, torch.randn(5, 10))
    print(out.shape)
