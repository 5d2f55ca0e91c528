"""A LightningModule whose loss is F.binary_cross_entropy on sigmoid outputs, trained with
precision="16-mixed": autocast refuses it as unsafe (Lightning-AI/pytorch-lightning#13871, pytorch/pytorch#61098)."""

import os

import pytorch_lightning as pl
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from zoo.data import quiet_torch


class Tagger(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(16, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        probs = torch.sigmoid(self.net(x))
        return F.binary_cross_entropy(probs, y)  # the bug: unsafe under autocast

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def main() -> None:
    quiet_torch()
    cpu = os.environ.get("ZOO_Y_DEVICE") == "cpu"  # a check of the Python on a machine without CUDA
    data = TensorDataset(torch.randn(64, 16), torch.randint(0, 2, (64, 1)).float())
    trainer = pl.Trainer(
        accelerator="cpu" if cpu else "gpu",
        devices=1,
        precision="32" if cpu else "16-mixed",
        max_steps=3,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(Tagger(), DataLoader(data, batch_size=16))
