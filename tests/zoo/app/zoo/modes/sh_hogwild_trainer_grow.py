"""Hogwild: a model made shared with share_memory() and 2 forked torch.multiprocessing trainers; each trainer
also logs its losses into a shared tensor and grows it in place with resize_ when it is full."""

import torch
import torch.multiprocessing as mp
from torch import nn


def trainer(model: nn.Module, losses: torch.Tensor, seed: int) -> None:
    torch.manual_seed(seed)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(12):
        loss = model(torch.randn(8, 4)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step >= len(losses):
            losses.resize_(2 * len(losses))
        losses[step] = loss.item()


def main() -> None:
    model = nn.Linear(4, 1)
    model.share_memory()
    logs = [torch.zeros(8).share_memory_() for _ in range(2)]
    procs = [mp.Process(target=trainer, args=(model, logs[i], i)) for i in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    codes = [p.exitcode for p in procs]
    if any(codes):
        raise RuntimeError(f"Hogwild trainers failed, exit codes {codes}")
    print("trained", model.weight.data)
