"""The classifiers: the optimizer (and scheduler) come in as `_partial_` configs, called here on the parameters."""

import pytorch_lightning as pl
import torch
from torch.nn import functional as F


class BlobClassifier(pl.LightningModule):
    def __init__(self, optimizer, hidden: int = 16, features: int = 8, scheduler=None):
        super().__init__()
        self.save_hyperparameters(logger=False)
        self.net = torch.nn.Sequential(torch.nn.Linear(features, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 2))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train/loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.log("val/loss", F.cross_entropy(logits, y))
        self.log("val/acc", (logits.argmax(1) == y).float().mean())

    def configure_optimizers(self):
        return self.hparams.optimizer(params=self.parameters())


class ScheduledClassifier(BlobClassifier):
    """Steps its learning rate down once per epoch."""

    def configure_optimizers(self):
        optimizer = self.hparams.optimizer(params=self.parameters())
        scheduler = self.hparams.scheduler(optimizer=optimizer)
        return {"optimizer": optimizer, "lr_scheduler": {"schedular": scheduler, "interval": "epoch"}}


class ManualClassifier(BlobClassifier):
    """Steps its optimizer itself (as a GAN's or an RL learner's loop does)."""

    def __init__(self, optimizer, hidden: int = 16, features: int = 8, scheduler=None):
        super().__init__(optimizer, hidden, features, scheduler)
        self.automatic_optimization = False

    def training_step(self, batch, batch_idx):
        x, y = batch
        opt = self.optimizers()
        loss = F.cross_entropy(self(x), y)
        opt.zero_grad()
        self.manual_backward(loss)
        opt.step()
        self.log("train/loss", loss)


class DetailedClassifier(BlobClassifier):
    """Returns its logits beside the loss, for the callbacks that read a step's outputs."""

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        train_loss = F.cross_entropy(logits, y)
        self.log("train/loss", train_loss)
        return {"train_loss": train_loss, "logits": logits.detach()}
