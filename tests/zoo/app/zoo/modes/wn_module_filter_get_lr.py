r"""Warnings made errors for torch.optim's module only (`warnings.filterwarnings("error", module=r"torch\.optim")`,
to keep the optimizer and scheduler code warning-free while other libraries' warnings stay warnings); the epoch
log reads the learning rate with `sched.get_lr()` outside `step()`. torch's UserWarning, attributed to
torch/optim/lr_scheduler.py, matches the filter and ends the run at the first epoch's log line."""

import warnings

import torch
from torch import nn


def main() -> None:
    warnings.filterwarnings("error", module=r"torch\.optim")
    torch.manual_seed(0)
    model = nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    for epoch in range(3):
        for _ in range(4):
            loss = model(torch.randn(16, 8)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
        print(f"epoch {epoch} loss {loss.item():.4f} lr {sched.get_lr()[0]:.4f}", flush=True)
