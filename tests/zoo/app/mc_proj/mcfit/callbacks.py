"""The project's callbacks: per-batch image logging to wandb, a dataset-index snapshot."""

import os
import queue
import threading

import pytorch_lightning as pl
import wandb
from filelock import FileLock
from pytorch_lightning.utilities import rank_zero_only


class ImageLogger(pl.Callback):
    """Logs the first image of every training batch to wandb, from a background thread (uploads are slow)."""

    def __init__(self, every_n_batches: int = 1, threaded: bool = False, source: str = "inputs"):
        self.every_n_batches, self.threaded, self.source = every_n_batches, threaded, source

    def on_fit_start(self, trainer, pl_module) -> None:
        if self.threaded:
            self.pending: queue.Queue = queue.Queue()
            threading.Thread(target=self._upload, args=(trainer,), name="wandb-upload", daemon=True).start()

    def _upload(self, trainer) -> None:
        while True:
            step, image = self.pending.get()
            trainer.logger.experiment.log({"train/sample": wandb.Image(image)}, step=step)
            self.pending.task_done()

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx) -> None:
        if batch_idx % self.every_n_batches:
            return
        image = (outputs["features"][:1, :3] if self.source == "features" else batch[0][:1]).detach().cpu()
        if self.threaded:
            self.pending.put((trainer.global_step, image))
        else:
            trainer.logger.log_image("train/sample", [image[0]], step=trainer.global_step)

    def on_train_end(self, trainer, pl_module) -> None:
        if self.threaded:
            self.pending.join()  # every image uploaded before the run closes


class IndexSnapshot(pl.Callback):
    """Writes the dataset's index next to the run's outputs, under a file lock (several jobs share the folder)."""

    def __init__(self, enabled: bool = False):
        self.enabled = enabled

    @rank_zero_only
    def on_fit_start(self, trainer, pl_module) -> None:
        if not self.enabled:
            return
        path = os.path.join(trainer.datamodule.workdir, "index.json")
        with FileLock(path + ".lock"):
            self._write(path, trainer.datamodule)

    def _write(self, path: str, datamodule) -> None:
        with FileLock(path + ".lock"):  # writers elsewhere take the lock too
            with open(path, "w") as f:
                f.write(str(len(datamodule.train_set)))
