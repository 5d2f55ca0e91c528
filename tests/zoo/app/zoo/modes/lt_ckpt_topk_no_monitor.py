"""A ModelCheckpoint asked to keep the 3 best checkpoints with no metric to rank them by (monitor left unset):
Lightning refuses the callback when it is built (Lightning-AI/pytorch-lightning#3620, #3735)."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset

from zoo.data import quiet_torch


class Regressor(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(8, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = torch.nn.functional.mse_loss(self.net(x), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def main() -> None:
    quiet_torch()
    data = TensorDataset(torch.randn(32, 8), torch.randn(32, 1))
    best = pl.callbacks.ModelCheckpoint(dirpath="/tmp/lt_ckpt_topk", save_top_k=3)  # the bug: no monitor
    trainer = pl.Trainer(accelerator="cpu", max_epochs=2, logger=False, callbacks=[best], enable_progress_bar=False)
    trainer.fit(Regressor(), DataLoader(data, batch_size=8))
