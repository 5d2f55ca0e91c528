"""The project's models."""

import pytorch_lightning as pl
import torch
import torch.nn.functional as F
from torch import nn

from w_lib.registry import register


@register
class TinyClassifier(pl.LightningModule):
    def __init__(self, in_dim: int, n_classes: int, hidden_dim: int = 16, lr: float = 0.1) -> None:
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, n_classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("val_loss", loss)
        return loss

    def test_step(self, batch, batch_idx):
        x, y = batch
        self.log("test_acc", (self(x).argmax(1) == y).float().mean())

    def configure_optimizers(self):
        opt = torch.optim.SGD(self.parameters(), lr=self.hparams.lr)
        return {"optimizer": opt, "lr_scheduler": torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)}


@register
class AccuracyClassifier(TinyClassifier):
    """Also reports the validation accuracy of each epoch, from the outputs its validation steps keep."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.val_outputs: list = []

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        self.val_outputs.append({"loss": loss, "correct": (logits.argmax(1) == y).sum()})
        return loss

    def on_validation_epoch_end(self) -> None:
        losses = torch.stack(self.val_outputs)
        self.log("val_loss", losses.mean())
        self.val_outputs.clear()
