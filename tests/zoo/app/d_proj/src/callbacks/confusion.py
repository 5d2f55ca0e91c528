"""A callback that logs the validation confusion matrix as a figure to the experiment's logger (as the template's
wandb callbacks do), collecting predictions batch by batch."""

import pytorch_lightning as pl
import torch


class LogConfusionMatrix(pl.Callback):
    def __init__(self, num_classes: int = 4):
        self.num_classes = num_classes
        self.preds: list = []
        self.targets: list = []

    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx=0):
        x, y = batch
        self.preds.append(pl_module(x).argmax(dim=1))
        self.targets.append(y)

    def on_validation_epoch_end(self, trainer, pl_module):
        preds, targets = torch.cat(self.preds), torch.cat(self.targets)
        cm = torch.bincount(targets * self.num_classes + preds, minlength=self.num_classes**2)
        experiment = trainer.logger.experiment
        experiment.add_text(
            "val/confusion", str(cm.reshape(self.num_classes, self.num_classes).tolist()), trainer.global_step
        )
        self.preds.clear()
        self.targets.clear()
