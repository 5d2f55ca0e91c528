"""metakit's entry: python train.py --case NAME (a meta-learning or per-sample-gradient experiment)."""

import argparse

import torch
import torch.nn.functional as F
from metakit import data, inner, models


def maml_aux(steps: int) -> None:
    model = models.TwoHead()
    meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for it in range(steps):
        x, y = data.task(it)
        fast = inner.adapt(model, x, y)
        loss = F.mse_loss(torch.func.functional_call(model, fast, (x,)), y)
        meta_opt.zero_grad()
        loss.backward()
        meta_opt.step()
        print(f"meta step {it} loss {loss.item():.3f}")


def persample_bn() -> None:
    model = models.MLP(norm=True)
    x, y = data.batch()
    g = inner.per_sample_grads(model, x, y)
    print({k: tuple(v.shape) for k, v in g.items()})


def influence() -> None:
    model = models.MLP()
    x, y = data.batch()
    g = inner.sample_losses(model, x, y)
    print({k: tuple(v.shape) for k, v in g.items()})


def robust_eval() -> None:
    model = models.MLP()
    x, y = data.batch()
    print(f"clipped error {inner.clipped_error(model, x, y).mean():.3f}")


def probe_grads() -> None:
    model = models.ProbedMLP()
    x, y = data.batch()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    print(f"grad norms {model.grad_norms}")


CASES = {
    "fn_maml_unused_head": lambda: maml_aux(3),
    "fn_persample_batchnorm": persample_bn,
    "fn_grad_vector_loss": influence,
    "fn_vmap_item_clip": robust_eval,
    "fn_hook_view_inplace": probe_grads,
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    args = parser.parse_args()
    torch.manual_seed(0)
    print(f"case {args.case}")
    CASES[args.case]()


if __name__ == "__main__":
    main()
