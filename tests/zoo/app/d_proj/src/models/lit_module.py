"""The LightningModule, as lightning-hydra-template's MNISTLitModule: the net and the optimizer come from the
config, and the net is left out of the saved hyperparameters (it is a module, already in the state_dict)."""

from typing import Any

import pytorch_lightning as pl
import torch
from torch import nn


class LitClassifier(pl.LightningModule):
    def __init__(self, net: nn.Module, optimizer: Any, log_metrics_as_dict: bool = False):
        super().__init__()
        self.save_hyperparameters(logger=False, ignore=["net"])
        self.net = net
        self.criterion = nn.CrossEntropyLoss()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)

    def model_step(self, batch: Any):
        x, y = batch
        logits = self.forward(x)
        loss = self.criterion(logits, y)
        preds = torch.argmax(logits, dim=1)
        return loss, preds, y

    def training_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        loss, preds, targets = self.model_step(batch)
        self.log("train/loss", loss, on_step=False, on_epoch=True, prog_bar=True)
        return loss

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        loss, preds, targets = self.model_step(batch)
        acc = (preds == targets).float().mean()
        if self.hparams.log_metrics_as_dict:
            self.log("val/metrics", {"loss": loss, "acc": acc}, on_epoch=True)
        else:
            self.log("val/loss", loss, on_epoch=True, prog_bar=True)
            self.log("val/acc", acc, on_epoch=True, prog_bar=True)

    def test_step(self, batch: Any, batch_idx: int) -> None:
        loss, preds, targets = self.model_step(batch)
        self.log("test/loss", loss, on_epoch=True)

    def configure_optimizers(self) -> Any:
        return {"optimizer": self.hparams.optimizer(params=self.parameters())}
