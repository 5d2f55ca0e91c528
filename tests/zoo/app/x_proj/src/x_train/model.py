"""The network (built by hydra.utils.instantiate from cfg.model) and its LightningModule."""

import pytorch_lightning as pl
import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self, in_dim: int, hidden: int, n_classes: int):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


class Classifier(pl.LightningModule):
    """optim_factory: the `optim` option, instantiated as a partial, called with the parameters here."""

    def __init__(self, net: nn.Module, optim_factory, momentum: float):
        super().__init__()
        self.net, self.optim_factory, self.momentum = net, optim_factory, momentum
        self.class_weights = None

    def setup(self, stage: str) -> None:
        self.class_weights = self.trainer.datamodule.class_weights

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = nn.functional.cross_entropy(self(x), y, weight=self.class_weights)
        self.log("train/loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val/loss", nn.functional.cross_entropy(self(x), y))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)

    def configure_optimizers(self):
        return self.optim_factory(self.parameters(), momentum=self.momentum)
