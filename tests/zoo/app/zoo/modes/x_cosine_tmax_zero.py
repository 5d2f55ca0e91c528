"""A cosine schedule over "epochs // 10" cycles: a short debug run of 5 epochs makes T_max 0, and the
scheduler's first real step divides by it."""

import torch
from torch import nn


def main() -> None:
    epochs = 5
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs // 10)
    for epoch in range(epochs):
        loss = model(torch.randn(8, 4)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        print(f"epoch {epoch}: lr {sched.get_last_lr()[0]:.4f}")
