"""An exponential moving average of a model's weights, kept as a copy of its state_dict."""

import torch
from torch import nn


class EMA:
    def __init__(self, model: nn.Module, decay: float = 0.999, buffers_too: bool = False) -> None:
        self.decay = decay
        self.buffers_too = buffers_too
        sd = model.state_dict()
        names = sd if buffers_too else dict(model.named_parameters())
        self.shadow = {k: sd[k].detach().clone() for k in names}

    @torch.no_grad()
    def update(self, model: nn.Module) -> None:
        msd = model.state_dict()
        for k, v in self.shadow.items():
            v.mul_(self.decay).add_(msd[k].detach(), alpha=1 - self.decay)
