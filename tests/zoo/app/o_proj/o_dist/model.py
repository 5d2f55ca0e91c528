import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, with_aux: bool = False):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(16, 32), nn.ReLU())
        self.head = nn.Linear(32, 4)
        self.aux = nn.Linear(32, 2) if with_aux else None

    def forward(self, x: torch.Tensor, use_aux: bool = False) -> torch.Tensor:
        h = self.body(x)
        out = self.head(h)
        if use_aux:
            out = out + self.aux(h).mean(dim=1, keepdim=True)
        return out


def batch(step: int, rank: int, n: int = 8) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(step * 10 + rank)
    return torch.randn(n, 16, generator=g), torch.randint(0, 4, (n,), generator=g)
