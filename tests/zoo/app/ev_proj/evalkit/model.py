"""A small convolutional classifier and its checkpoint layout."""

import torch
from torch import nn


class Classifier(nn.Module):
    def __init__(self, num_classes: int = 4, width: int = 8):
        super().__init__()
        self.conv = nn.Conv2d(3, width, 3, padding=1)
        self.relu = nn.ReLU()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(width, num_classes)

    def features(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(self.relu(self.conv(x))).flatten(1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


class ClassifierWithAux(Classifier):
    """The variant the export scripts were written for: logits and the embedding, by name."""

    def forward(self, x: torch.Tensor) -> dict:
        emb = self.features(x)
        return {"logits": self.head(emb), "embedding": emb}


class FlatHead(Classifier):
    """The serving variant: the head reads the feature map flattened to the batch the service uses."""

    def __init__(self, batch_size: int = 8, **kw):
        super().__init__(**kw)
        self.batch_size = batch_size

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        emb = self.features(x)
        return self.head(emb.reshape(self.batch_size, -1))
