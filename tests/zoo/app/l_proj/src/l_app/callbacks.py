"""Callbacks: per-batch image logging to the experiment logger, and a confusion matrix at the epoch's end."""

from typing import Any

import pytorch_lightning as pl
import torch


class Denormalize:
    def __init__(self, mean: list, std: list):
        self.mean = torch.tensor(mean).view(-1, 1, 1)
        self.std = torch.tensor(std).view(-1, 1, 1)

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.std + self.mean


class ImageLogger(pl.Callback):
    def __init__(self, n_images: int = 4, class_names: Any = None, denorm: Any = None):
        self.n_images = n_images
        self.class_names = list(class_names or [])
        self.denorm = denorm

    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx=0) -> None:
        images = outputs["images"][: self.n_images]
        if self.denorm is not None:
            images = self.denorm(images)
        captions = [self.class_names[int(p)] for p in outputs["preds"][: len(self.class_names)]]
        trainer.logger.log_image(key="val/samples", images=list(images), caption=captions)


class ConfusionMatrix(pl.Callback):
    def on_train_epoch_end(self, trainer, pl_module) -> None:
        preds = torch.stack(pl_module.val_preds).flatten()
        targets = torch.stack(pl_module.val_targets).flatten()
        cm = torch.zeros(4, 4, dtype=torch.long)
        cm.index_put_((targets, preds), torch.ones_like(preds), accumulate=True)
        print("confusion", cm.tolist())
