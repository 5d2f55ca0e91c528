"""A bag-of-embeddings classifier, split into embed and classify so that mixup can mix embeddings."""

import torch
from torch import nn


class Classifier(nn.Module):
    def __init__(self, vocab: int, dim: int, classes: int):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.body = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim), nn.GELU())
        self.head = nn.Linear(dim, classes)

    def embed(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.emb(tokens).mean(1)

    def classify(self, h: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(h))

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.classify(self.embed(tokens))
