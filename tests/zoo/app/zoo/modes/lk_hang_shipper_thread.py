"""A callback's shipping thread dies on the first path it gets; at the end of training the main waits for it.

The callback hands each validation's best checkpoint to a background thread that stats and ships it, and joins
the queue when training ends. Lightning runs ModelCheckpoint after the program's own callbacks, so at the first
`on_validation_end` no checkpoint is saved yet and `best_model_path` is "": the thread's `os.stat("")` raises and
the thread ends (`Exception in thread shipper`), the item never marked done; `on_train_end` waits on the queue for
ever.
"""

import os
import queue
import threading

import pytorch_lightning as pl
import torch.nn.functional as F
from pytorch_lightning.callbacks import ModelCheckpoint

from zoo.modes.lk_common import Classifier, loader, records, run_dir, trainer


class CheckpointShipper(pl.Callback):
    def on_fit_start(self, trainer, pl_module) -> None:
        self.todo: queue.Queue = queue.Queue()
        self.shipped: list[tuple[str, int]] = []
        threading.Thread(target=self.ship, name="shipper", daemon=True).start()

    def ship(self) -> None:
        while True:
            path = self.todo.get()
            size = os.stat(path).st_size
            self.shipped.append((path, size))
            self.todo.task_done()

    def on_validation_end(self, trainer, pl_module) -> None:
        self.todo.put(trainer.checkpoint_callback.best_model_path)

    def on_train_end(self, trainer, pl_module) -> None:
        print("waiting for the checkpoint shipper", flush=True)
        self.todo.join()
        print(f"shipped {len(self.shipped)} checkpoints", flush=True)


class Validated(Classifier):
    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val_loss", F.cross_entropy(self(x), y))


def main() -> None:
    keep = ModelCheckpoint(dirpath=os.path.join(run_dir(), "ckpt"), monitor="val_loss")
    fit = trainer(max_epochs=2, enable_checkpointing=True, callbacks=[CheckpointShipper(), keep])
    fit.fit(Validated(), loader(records()), loader(records(16, seed=1)))
