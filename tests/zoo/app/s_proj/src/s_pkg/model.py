"""The project's LightningModule: an MLP classifier of the tabular rows."""

import pytorch_lightning as pl
import torch
from torch.nn import functional as F


class TabularMLP(pl.LightningModule):
    def __init__(self, features: int, hidden: int, lr: float):
        super().__init__()
        self.lr = lr
        self.net = torch.nn.Sequential(torch.nn.Linear(features, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 2))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.log("val_loss", F.cross_entropy(logits, y))
        self.log("val_acc", (logits.argmax(1) == y).float().mean())

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.lr)
