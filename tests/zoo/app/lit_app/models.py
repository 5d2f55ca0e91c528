"""The LightningModules of the project; each of the last three has one bug users report."""

import pytorch_lightning as pl
import torch


class Regressor(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(4, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.mse_loss(self.net(x).squeeze(1), y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


class FloatLoss(Regressor):
    """Returns the loss as a Python float (`.item()` to log it, then returned)."""

    def training_step(self, batch, batch_idx):
        loss = super().training_step(batch, batch_idx)
        return loss.item()


class PlateauNoMonitor(Regressor):
    """ReduceLROnPlateau without the metric it must watch."""

    def configure_optimizers(self):
        opt = torch.optim.SGD(self.parameters(), lr=0.1)
        sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=2)
        return {"optimizer": opt, "lr_scheduler": sched}


class LogVector(Regressor):
    """Logs the per-sample errors (a vector) where a scalar is wanted."""

    def training_step(self, batch, batch_idx):
        x, y = batch
        errors = (self.net(x).squeeze(1) - y).abs()
        self.log("train/abs_error", errors)
        return errors.mean()


class HResumeMissing(Regressor):
    """Resumes from a checkpoint path that the previous run never wrote (lit_app/train.py passes `ckpt_path`)."""

    ckpt_path = "checkpoints/last.ckpt"


class HNoOptimizer(pl.LightningModule):
    """A module written without configure_optimizers (it was meant to come from a mixin)."""

    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(4, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.mse_loss(self.net(x).squeeze(1), y)


class HLogOnTrainEnd(Regressor):
    """Logs a summary metric from on_train_end, where Lightning does not allow self.log."""

    def on_train_end(self):
        self.log("final/weight_norm", self.net.weight.norm())
