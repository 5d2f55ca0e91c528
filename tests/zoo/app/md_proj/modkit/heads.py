"""Heads: a token model whose output projection is tied to its embedding, and a lazy classifier head."""

import torch
from torch import nn


class TiedLM(nn.Module):
    def __init__(self, vocab: int, dim: int) -> None:
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.body = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        self.head.weight = self.emb.weight  # weight tying

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.head(torch.tanh(self.body(self.emb(ids))))


class LazyHead(nn.Module):
    """The input width is not known until the features are seen: a LazyLinear."""

    def __init__(self, classes: int) -> None:
        super().__init__()
        self.fc = nn.LazyLinear(classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(x)
