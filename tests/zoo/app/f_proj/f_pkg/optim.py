"""SGD with momentum and decoupled weight decay, written by hand."""

import torch


class MomentumSGD:
    def __init__(self, params, lr: float, momentum: float = 0.9, weight_decay: float = 1e-4):
        self.params = [p for p in params if p.requires_grad]
        self.lr, self.momentum, self.wd = lr, momentum, weight_decay
        self.buf = [torch.zeros_like(p) for p in self.params]

    def zero_grad(self) -> None:
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self) -> None:
        for p, buf in zip(self.params, self.buf):
            grad = p.grad.add(p, alpha=self.wd)
            buf.mul_(self.momentum).add_(grad)
            p.sub_(buf, alpha=self.lr)
