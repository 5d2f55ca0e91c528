"""Callbacks: a throughput printer."""

import time

import pytorch_lightning as pl


class Throughput(pl.Callback):
    def on_train_epoch_start(self, trainer, pl_module):
        self.t0 = time.perf_counter()

    def on_train_epoch_end(self, trainer, pl_module):
        n = trainer.num_training_batches
        print(f"epoch {trainer.current_epoch}: {n} batches in {time.perf_counter() - self.t0:.2f} s", flush=True)
