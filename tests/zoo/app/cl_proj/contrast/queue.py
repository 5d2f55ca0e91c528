"""A memory bank of one embedding per training image (instance discrimination), sampled for negatives."""

import torch
import torch.nn.functional as F


class MemoryBank:
    def __init__(self, size: int, dim: int, negatives: int = 32):
        self.bank = F.normalize(torch.randn(size, dim), dim=1)
        self.negatives = negatives

    def loss(self, q: torch.Tensor, k: torch.Tensor, temperature: float) -> torch.Tensor:
        neg = self.bank[torch.randint(len(self.bank), (self.negatives,))]
        pos = (q * k).sum(1, keepdim=True)
        logits = torch.cat([pos, q @ neg.T], dim=1) / temperature
        return F.cross_entropy(logits, torch.zeros(len(q), dtype=torch.long))

    @torch.no_grad()
    def update(self, ids: torch.Tensor, k: torch.Tensor) -> None:
        self.bank.index_copy_(0, ids, F.normalize(k, dim=1))
