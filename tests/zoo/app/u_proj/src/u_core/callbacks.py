"""The project's own callbacks."""

import time

import pytorch_lightning as pl


class EpochClock(pl.Callback):
    def on_train_epoch_start(self, trainer, pl_module):
        self.started = time.monotonic()

    def on_train_epoch_end(self, trainer, pl_module):
        pl_module.log("time/epoch_s", time.monotonic() - self.started)
