"""A callback that logs a grid of the batch's first images every N training batches."""

import pytorch_lightning as pl

from g_vision.imagelog import GridLogger, make_grid


class ImageGrid(pl.Callback):
    def __init__(self, every_n_batches: int = 4, n_images: int = 8, backend: str = "files", key: str = "samples"):
        self.every_n_batches, self.n_images, self.key = every_n_batches, n_images, key
        self.grids = GridLogger(backend)

    def on_train_batch_end(self, trainer: pl.Trainer, pl_module, outputs, batch, batch_idx: int) -> None:
        if batch_idx % self.every_n_batches:
            return
        grid = make_grid(batch[0][: self.n_images].detach().cpu(), nrow=4)
        self.grids.log(trainer, self.key, grid, trainer.global_step)
