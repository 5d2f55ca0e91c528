"""A Lightning Trainer configured for the two GPUs of the machine it was written on (devices=2), run on a
machine with one: Lightning refuses the request (ray-project/ray_lightning#32, bene-ges/nemo_compatible#16)."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset

from zoo.data import quiet_torch


class Regressor(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(8, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.mse_loss(self.net(x), y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def main() -> None:
    quiet_torch()
    data = TensorDataset(torch.randn(32, 8), torch.randn(32, 1))
    trainer = pl.Trainer(accelerator="gpu", devices=2, max_steps=2, logger=False)  # the bug: one GPU here
    trainer.fit(Regressor(), DataLoader(data, batch_size=8))
