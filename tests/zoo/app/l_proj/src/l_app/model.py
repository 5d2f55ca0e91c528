"""A small CNN classifier as a LightningModule; the optimizer comes from the config as a partial."""

from typing import Any

import pytorch_lightning as pl
import torch
from torch import nn


class LitCNN(pl.LightningModule):
    def __init__(self, optimizer: Any, num_classes: int = 4, hidden: int = 8):
        super().__init__()
        self.save_hyperparameters(logger=False)
        self.net = nn.Sequential(
            nn.Conv2d(3, hidden, 3, padding=1),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(hidden, num_classes),
        )
        self.val_preds: list[torch.Tensor] = []
        self.val_targets: list[torch.Tensor] = []

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)

    def training_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        x, y = batch
        loss = nn.functional.cross_entropy(self(x), y)
        self.log("train/loss", loss, on_epoch=True)
        return loss

    def validation_step(self, batch: Any, batch_idx: int) -> dict:
        x, y = batch
        logits = self(x)
        self.val_preds.append(logits.argmax(1))
        self.val_targets.append(y)
        self.log("val/loss", nn.functional.cross_entropy(logits, y))
        return {"images": x, "preds": logits.argmax(1)}

    def on_validation_epoch_end(self) -> None:
        acc = (torch.cat(self.val_preds) == torch.cat(self.val_targets)).float().mean()
        self.log("val/acc", acc)
        self.val_preds.clear()
        self.val_targets.clear()

    def test_step(self, batch: Any, batch_idx: int) -> None:
        x, y = batch
        self.log("test/loss", nn.functional.cross_entropy(self(x), y))

    def configure_optimizers(self) -> Any:
        return self.hparams.optimizer(params=self.parameters())
