"""A small regression trainer: `python train.py --case NAME` (tests/zoo/HELDOUT55.md)."""

import argparse  # noqa: I001 (optkit is this project's own package, imported from its folder)
import os
import tempfile

import torch
from torch import nn

from optkit import groups, loop, schedules


def model() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(8, 16), nn.LayerNorm(16), nn.Tanh(), nn.Linear(16, 1))


def case_resume_groups() -> None:
    """Resume a checkpoint written before the decay/no-decay split into an optimizer built with it."""
    path = os.path.join(tempfile.mkdtemp(), "last.pt")
    old = model()
    opt = groups.make_optimizer(old, lr=1e-2, weight_decay=0.01, split=False)
    loop.fit(old, opt, epochs=20)
    torch.save({"model": old.state_dict(), "optimizer": opt.state_dict()}, path)
    print(f"saved {path}", flush=True)
    new = model()
    new_opt = groups.make_optimizer(new, lr=1e-2, weight_decay=0.01, split=True)
    groups.resume(new_opt, path)
    loop.fit(new, new_opt, epochs=2)


def case_warmup_milestones() -> None:
    m = model()
    opt = groups.make_optimizer(m, lr=1e-2, weight_decay=0.01, split=True)
    sched = schedules.warmup_cosine(opt, warmup=5, total=50)
    loop.fit(m, opt, epochs=50, sched=sched)


def case_stale_head() -> None:
    """The head is re-initialised for a new target after the optimizer was built over the old one."""
    m = model()
    opt = groups.make_optimizer(m, lr=5e-2, weight_decay=0.0, split=False)
    for p in m[:3].parameters():
        p.requires_grad_(False)  # fine-tune the head only
    m[3] = nn.Linear(16, 1)  # a fresh head: the optimizer still holds the old one's parameters
    loop.fit(m, opt, epochs=30)


def case_accum_sum() -> None:
    m = model()
    loop.accumulate(m, accum=4)
    print("accumulated 4 micro-batches", flush=True)


CASES = {
    "op_resume_groups": case_resume_groups,
    "op_warmup_milestones": case_warmup_milestones,
    "op_stale_head": case_stale_head,
    "op_accum_sum": case_accum_sum,
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    args = parser.parse_args()
    CASES[args.case]()


if __name__ == "__main__":
    main()
