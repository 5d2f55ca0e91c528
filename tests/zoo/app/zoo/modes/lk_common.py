"""What the lk_ modes share: a small classifier, its data and a quiet CPU Trainer."""

import os
import tempfile

import pytorch_lightning as pl
import torch
import torch.nn.functional as F
from pytorch_lightning.loggers import CSVLogger
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def records(n: int = 64, classes: int = 4, seed: int = 0) -> TensorDataset:
    g = torch.Generator().manual_seed(seed)
    return TensorDataset(torch.randn(n, 16, generator=g), torch.randint(0, classes, (n,), generator=g))


class Classifier(pl.LightningModule):
    def __init__(self, classes: int = 4) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def loader(dataset, **kwargs) -> DataLoader:
    return DataLoader(dataset, batch_size=kwargs.pop("batch_size", 8), **kwargs)


def run_dir() -> str:
    if "LK_RUN_DIR" not in os.environ:  # launched ranks inherit it: one folder for every rank
        os.environ["LK_RUN_DIR"] = tempfile.mkdtemp(prefix="lk_")
    return os.environ["LK_RUN_DIR"]


def trainer(**kwargs) -> pl.Trainer:
    root = run_dir()
    options = dict(
        accelerator="cpu",
        devices=1,
        max_epochs=1,
        default_root_dir=root,
        logger=CSVLogger(root),
        enable_progress_bar=False,
        enable_model_summary=False,
        enable_checkpointing=False,
        num_sanity_val_steps=0,
    )
    options.update(kwargs)
    return pl.Trainer(**options)
