"""A checkpoint-upload callback: a background thread takes paths from a queue and marks each done; the callback
sends the thread its stop word at every epoch's end (meant for the last), so after epoch 0 the thread is gone;
`on_train_end` queues the final path and waits in `queue.join()` for ever (ecmwf/anemoi-core#129,
OpenPipe/ART#429: training hangs at the end in a callback)."""

import queue
import threading

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset

from zoo.data import quiet_torch


class Uploader(pl.Callback):
    def __init__(self):
        self.jobs: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._upload, name="uploader", daemon=True)
        self.thread.start()

    def _upload(self):
        while True:
            path = self.jobs.get()
            if path is None:
                self.jobs.task_done()
                return
            print(f"uploaded {path}", flush=True)
            self.jobs.task_done()

    def on_train_epoch_end(self, trainer, pl_module):
        self.jobs.put(f"epoch{trainer.current_epoch}.ckpt")
        self.jobs.put(None)  # the bug: the stop word at every epoch's end, not only the last

    def on_train_end(self, trainer, pl_module):
        self.jobs.put("last.ckpt")
        print("waiting for the uploads", flush=True)
        self.jobs.join()


class Regressor(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(8, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.mse_loss(self.net(x), y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def main() -> None:
    quiet_torch()
    data = TensorDataset(torch.randn(32, 8), torch.randn(32, 1))
    trainer = pl.Trainer(
        accelerator="cpu",
        max_epochs=2,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        callbacks=[Uploader()],
    )
    trainer.fit(Regressor(), DataLoader(data, batch_size=8))
