"""torchrun, 2 gloo ranks, Lightning's ddp strategy on CPU: a throughput callback keeps its history only on the
global zero rank (created in `setup` under `if trainer.is_global_zero`), but appends to it on every rank in
`on_train_batch_end`; rank 1 fails after its first batch (NVIDIA/NVFlare#5040, Lightning-AI/pytorch-lightning#16417)."""

import time

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset

from zoo.data import quiet_torch


class Throughput(pl.Callback):
    def setup(self, trainer, pl_module, stage):
        if trainer.is_global_zero:
            self.history = []
        self.t0 = time.perf_counter()

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        now = time.perf_counter()
        self.history.append(len(batch[0]) / (now - self.t0))
        self.t0 = now


class Regressor(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(8, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.mse_loss(self.net(x), y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def run(rank: int, world_size: int) -> None:
    quiet_torch()
    data = TensorDataset(torch.randn(64, 8), torch.randn(64, 1))
    trainer = pl.Trainer(
        accelerator="cpu",
        devices=world_size,
        strategy="ddp",
        max_epochs=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        callbacks=[Throughput()],
    )
    trainer.fit(Regressor(), DataLoader(data, batch_size=8))
