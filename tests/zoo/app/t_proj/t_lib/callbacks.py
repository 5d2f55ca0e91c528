"""The project's Callback: a confusion matrix of each validation epoch, printed."""

import pytorch_lightning as pl
import torch

from t_lib import metrics


class ConfusionMonitor(pl.Callback):
    def __init__(self) -> None:
        self.probs: list = []
        self.targets: list = []

    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx=0) -> None:
        self.probs.append(outputs["probs"])
        self.targets.append(outputs["target"])

    def on_validation_epoch_end(self, trainer, pl_module) -> None:
        preds = torch.cat(self.probs).round()  # the positive class's probability, rounded: 0. or 1.
        matrix = metrics.confusion(preds, torch.cat(self.targets))
        print(f"epoch {trainer.current_epoch} confusion {matrix.tolist()}")
        self.probs, self.targets = [], []


class LogitWatch(pl.Callback):
    """Logs the mean logit of each training batch (training_step returns the batch's logits)."""

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx) -> None:
        pl_module.log("train_mean_logit", outputs["logits"].mean(0))
