"""The tagger: an encoder that takes the features and a padding mask, and a linear head."""

import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self, dim: int = 16) -> None:
        super().__init__()
        self.fc = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.fc(x)) * mask.unsqueeze(-1)


class Tagger(nn.Module):
    def __init__(self, dim: int = 16, classes: int = 4) -> None:
        super().__init__()
        self.encoder = Encoder(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        h = self.encoder(x, mask)
        return self.head(h.mean(dim=1))


def batch(n: int = 8, t: int = 5, dim: int = 16) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    x = torch.randn(n, t, dim)
    mask = (torch.rand(n, t) > 0.2).float()
    y = torch.randint(0, 4, (n,))
    return x, mask, y
