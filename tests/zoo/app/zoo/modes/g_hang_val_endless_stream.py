"""Lightning: validation reads frames from a camera-like stream (an IterableDataset whose __iter__ waits for
the next frame and never ends: no length, no limit_val_batches). Training's 4 batches pass; the epoch's
validation never returns."""

import time

import pytorch_lightning as pl
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, IterableDataset, TensorDataset


class CameraStream(IterableDataset):
    def __iter__(self):
        g = torch.Generator().manual_seed(0)
        while True:
            time.sleep(0.05)
            yield torch.randn(8, generator=g), int(torch.randint(0, 2, (1,), generator=g))


class Model(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(8, 2)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self.layer(x), y)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val/loss", F.cross_entropy(self.layer(x), y))

    def on_validation_epoch_start(self):
        print("training epoch done; validating on the stream", flush=True)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def main() -> None:
    train = DataLoader(TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,))), batch_size=16)
    trainer = pl.Trainer(
        accelerator="cpu",
        max_epochs=1,
        num_sanity_val_steps=0,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(Model(), train, DataLoader(CameraStream(), batch_size=4))
