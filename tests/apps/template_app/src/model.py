"""A two-layer classifier that logs train/val/test loss."""

import pytorch_lightning as pl
import torch
import torch.nn.functional as F
from torch import nn


class TinyModule(pl.LightningModule):
    def __init__(self, features: int, hidden: int, classes: int, lr: float):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(features, hidden), nn.ReLU(), nn.Linear(hidden, classes))

    def _loss(self, batch) -> torch.Tensor:
        x, y = batch
        return F.cross_entropy(self.net(x), y)

    def training_step(self, batch, batch_idx):
        loss = self._loss(batch)
        self.log("train/loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        self.log("val/loss", self._loss(batch), prog_bar=True)

    def test_step(self, batch, batch_idx):
        self.log("test/loss", self._loss(batch))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
