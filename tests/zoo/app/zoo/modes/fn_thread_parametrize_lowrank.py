"""A background compression job (ThreadPoolExecutor) puts a low-rank parametrization on each Linear weight;
the parametrization returns the rank-r factor itself (out x r), not the product U V^T, so its shape differs
from the weight's; the main re-raises it from future.result()."""

from concurrent.futures import ThreadPoolExecutor

import torch
from torch import nn
from torch.nn.utils import parametrize


class LowRank(nn.Module):
    def __init__(self, rank: int) -> None:
        super().__init__()
        self.rank = rank

    def forward(self, w: torch.Tensor) -> torch.Tensor:
        u, s, _ = torch.linalg.svd(w, full_matrices=False)
        return u[:, : self.rank] * s[: self.rank]


def compress(model: nn.Module, rank: int) -> int:
    count = 0
    for layer in model.modules():
        if isinstance(layer, nn.Linear):
            parametrize.register_parametrization(layer, "weight", LowRank(rank))
            count += 1
    return count


def main() -> None:
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
    with ThreadPoolExecutor(max_workers=1) as pool:
        job = pool.submit(compress, model, 4)
        print("compressing in the background", flush=True)
        print(f"compressed {job.result()} layers")
