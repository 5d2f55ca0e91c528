"""NT-Xent (SimCLR) over two views, and a memory-bank NCE."""

import torch
import torch.nn.functional as F


class NTXent:
    def __init__(self, temperature):
        self.temperature = temperature

    def __call__(self, z1: torch.Tensor, z2: torch.Tensor) -> torch.Tensor:
        n = z1.shape[0]
        z = F.normalize(torch.cat([z1, z2]), dim=1)
        sim = z @ z.T / self.temperature
        sim.fill_diagonal_(float("-inf"))
        labels = torch.cat([torch.arange(n, 2 * n), torch.arange(n)])
        return F.cross_entropy(sim, labels)
