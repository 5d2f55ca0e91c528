"""An export child (multiprocessing, spawn) rebuilds a metric-learning head whose weight is parametrized as
symmetric positive definite (W = L L^T); the parametrization's right_inverse takes the Cholesky factor of the
trained weight, which is not positive definite; the main sees the child's exit code and raises."""

import multiprocessing as mp

import torch
from torch import nn
from torch.nn.utils import parametrize


class SPD(nn.Module):
    def forward(self, lower: torch.Tensor) -> torch.Tensor:
        tril = lower.tril()
        return tril @ tril.T

    def right_inverse(self, w: torch.Tensor) -> torch.Tensor:
        return torch.linalg.cholesky(w)


def export(seed: int) -> None:
    torch.manual_seed(seed)
    head = nn.Linear(8, 8, bias=False)
    with torch.no_grad():
        head.weight.copy_(torch.randn(8, 8))
    parametrize.register_parametrization(head, "weight", SPD())
    torch.save(head.state_dict(), "/dev/null")


def main() -> None:
    child = mp.get_context("spawn").Process(target=export, args=(0,))
    child.start()
    print("exporting the metric head in a child", flush=True)
    child.join()
    if child.exitcode != 0:
        raise RuntimeError(f"export child failed with exit code {child.exitcode}")
