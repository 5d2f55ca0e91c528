"""The project's LightningModule: a two-layer classifier of the blobs. Its loss comes from t_lib.loss, its metrics
from t_lib.metrics."""

from typing import Callable

import pytorch_lightning as pl
import torch

from t_lib import metrics


class BlobNet(pl.LightningModule):
    def __init__(
        self,
        features: int,
        hidden: int,
        lr: float,
        loss_fn: Callable,
        running_acc: bool = False,
        grad_norms: bool = False,
        freeze_input: bool = False,
        manual_step: bool = False,
    ):
        super().__init__()
        self.lr, self.loss_fn = lr, loss_fn
        self.running_acc, self.grad_norms, self.manual_step = running_acc, grad_norms, manual_step
        self.embed = torch.nn.Linear(features, hidden)
        self.head = torch.nn.Linear(hidden, 2)
        if freeze_input:
            self.embed.requires_grad_(False)
        self.seen, self.correct = 0, 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(torch.relu(self.embed(x)))

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = self.loss_fn(logits, y)
        if self.manual_step:
            self.manual_backward(loss)
        self.log("train_loss", loss)
        return {"loss": loss, "logits": logits.detach()}

    def on_train_batch_end(self, outputs, batch, batch_idx) -> None:
        if self.running_acc:
            preds = outputs["preds"].argmax(1)
            self.seen += len(preds)
            self.correct += int((preds == batch[1]).sum())

    def on_before_optimizer_step(self, optimizer) -> None:
        if self.grad_norms:
            norms = torch.stack([p.grad.norm() for p in self.parameters()])
            self.log("grad_norm_max", norms.max())

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.log("val_loss", self.loss_fn(logits, y))
        self.log("val_acc", metrics.accuracy(logits, y))
        return {"probs": logits.softmax(1)[:, 1], "target": y}

    def configure_optimizers(self):
        return torch.optim.SGD([p for p in self.parameters() if p.requires_grad], lr=self.lr)
