"""Each fold of a cross-validated fine-tune runs in its own child process (multiprocessing, spawn), with
discriminative learning rates: one OneCycleLR peak per parameter group. The folds' model got a second head
(an auxiliary one) and its own parameter group; the list of peaks in the shared config was not extended."""

import multiprocessing as mp
import sys

import torch
from torch import nn

PEAKS = [1e-4, 1e-3, 1e-2]  # backbone, neck, head


def build() -> nn.Module:
    return nn.ModuleDict(
        {
            "backbone": nn.Linear(16, 32),
            "neck": nn.Linear(32, 32),
            "head": nn.Linear(32, 4),
            "aux_head": nn.Linear(32, 2),
        }
    )


def fold(k: int) -> None:
    torch.manual_seed(k)
    model = build()
    groups = [{"params": m.parameters()} for m in model.values()]
    opt = torch.optim.AdamW(groups, lr=1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=PEAKS, total_steps=20)
    for _step in range(20):
        h = torch.relu(model["neck"](torch.relu(model["backbone"](torch.randn(8, 16)))))
        loss = model["head"](h).pow(2).mean() + 0.1 * model["aux_head"](h).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
    print(f"fold {k} done", flush=True)


def main() -> None:
    ctx = mp.get_context("spawn")
    for k in range(2):
        p = ctx.Process(target=fold, args=(k,), name=f"fold-{k}")
        p.start()
        p.join()
        if p.exitcode != 0:
            print(f"fold {k} failed with exit code {p.exitcode}", file=sys.stderr, flush=True)
            sys.exit(1)
