"""An evaluation child (multiprocessing, fork) scores the model on held-out data with a range probe: a forward
hook on the last hidden layer raises the program's ValueError when an activation leaves [-5, 5]; the parent sees
the child's exit code 1 and raises its own error."""

import multiprocessing as mp

import torch
from torch import nn


def range_probe(module: nn.Module, inputs: tuple, output: torch.Tensor) -> None:
    peak = output.abs().max().item()
    if peak > 5.0:
        raise ValueError(f"activation out of range in {type(module).__name__}: |x| max {peak:.2f} > 5")


def evaluate(model: nn.Module) -> None:
    model[2].register_forward_hook(range_probe)
    with torch.no_grad():
        x = torch.randn(64, 8) * 20
        out = model(x)
    print(f"eval mean {out.mean().item():.3f}", flush=True)


def main() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
    child = mp.get_context("fork").Process(target=evaluate, args=(model,), name="evaluator")
    child.start()
    child.join()
    if child.exitcode != 0:
        raise RuntimeError(f"evaluation child failed with exit code {child.exitcode}")
