"""An SWA learning-rate sweep, one trial per thread (ThreadPoolExecutor, 2 workers); each builds
`SWALR(..., anneal_strategy="cosine")` where torch names the strategy "cos"; the main re-raises the
first trial's error from `future.result()`."""

from concurrent.futures import ThreadPoolExecutor

import torch
from torch import nn
from torch.optim.swa_utils import SWALR, AveragedModel


def trial(swa_lr: float) -> float:
    torch.manual_seed(0)
    x = torch.randn(32, 4)
    y = x.sum(1, keepdim=True)
    model = nn.Linear(4, 1)
    swa_model = AveragedModel(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = SWALR(opt, swa_lr=swa_lr, anneal_epochs=3, anneal_strategy="cosine")
    for _ in range(6):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        swa_model.update_parameters(model)
        sched.step()
    return nn.functional.mse_loss(swa_model(x), y).item()


def main() -> None:
    lrs = [0.01, 0.05]
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {lr: pool.submit(trial, lr) for lr in lrs}
        for lr, fut in futures.items():
            print(f"swa_lr {lr}: {fut.result():.4f}", flush=True)
