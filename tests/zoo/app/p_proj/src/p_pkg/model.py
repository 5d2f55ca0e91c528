"""The project's LightningModule: a two-layer classifier of 6 features into 2 classes."""

from typing import Callable

import pytorch_lightning as pl
import torch
from torch.nn import functional as F


class LitClassifier(pl.LightningModule):
    def __init__(self, optimizer: Callable, hidden: int = 16, features: int = 6, lr: float = 0.01):
        super().__init__()
        self.optimizer, self.lr = optimizer, lr
        self.net = torch.nn.Sequential(torch.nn.Linear(features, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 2))
        self.register_buffer("class_weights", torch.ones(2))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y, weight=self.class_weights)
        self.log("train/loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val/loss", F.cross_entropy(self(x), y))

    def configure_optimizers(self):
        return self.optimizer(self.parameters())


class FinetuneClassifier(LitClassifier):
    """Fine-tunes with its own learning rate (written when the optimizer was a class, not a partial)."""

    def configure_optimizers(self):
        return self.optimizer(self.parameters(), self.lr)
