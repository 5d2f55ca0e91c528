"""The project's callbacks."""

import time

import pytorch_lightning as pl


class EpochTimer(pl.Callback):
    def on_train_epoch_start(self, trainer, pl_module):
        self.started = time.monotonic()

    def on_train_epoch_end(self, trainer, pl_module):
        pl_module.log("time/epoch_s", time.monotonic() - self.started)


class ValAccuracy(pl.Callback):
    """The share of validation predictions within 0.5 of the target, from what validation_step returns."""

    def on_validation_epoch_start(self, trainer, pl_module):
        self.close, self.seen = 0, 0

    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx=0):
        if outputs is not None:
            self.close += int(outputs["close"])
            self.seen += int(outputs["count"])

    def on_validation_epoch_end(self, trainer, pl_module):
        pl_module.log("val/acc", self.close / self.seen)
