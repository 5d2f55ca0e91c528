"""Classifier heads; the focal loss's defaults live in losses.py, which reads the class count from here."""

import torch.nn as nn

from layoutkit.losses import focal_loss

NUM_CLASSES = 4


class ClassifierHead(nn.Module):
    def __init__(self, d_in: int = 16) -> None:
        super().__init__()
        self.fc = nn.Linear(d_in, NUM_CLASSES)

    def forward(self, x):
        return self.fc(x)

    def loss(self, logits, y):
        return focal_loss(logits, y)
