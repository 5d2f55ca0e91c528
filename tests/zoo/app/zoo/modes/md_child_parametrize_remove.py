"""An export child (multiprocessing, spawn) bakes the weight-norm parametrization in before saving, with
`remove_parametrizations` over every Linear; the output layer was never weight-normed. The parent raises on the
child's exit code."""

import multiprocessing as mp
import os
import tempfile

import torch
from torch import nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import weight_norm


def make_model() -> nn.Sequential:
    torch.manual_seed(0)
    return nn.Sequential(weight_norm(nn.Linear(8, 16)), nn.ReLU(), nn.Linear(16, 2))


def export(path: str) -> None:
    model = make_model()
    for layer in model:
        if isinstance(layer, nn.Linear):
            parametrize.remove_parametrizations(layer, "weight")
    torch.save(model.state_dict(), path)


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(), "export.pt")
    child = mp.get_context("spawn").Process(target=export, args=(path,), name="export")
    child.start()
    print("exporting in a child process")
    child.join()
    if child.exitcode != 0:
        raise RuntimeError(f"export child failed with exit code {child.exitcode}")
    print("exported", os.path.getsize(path))
