"""ddp_spawn on 2 CPU processes: the module records its best validation accuracy in an attribute during fit,
and the main reads it after fit; the attribute was set in the spawned processes' copies only, so the main's
module never had it (Lightning-AI/pytorch-lightning#10896: state set under ddp_spawn is lost)."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset

from zoo.data import quiet_torch


class Classifier(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(8, 2)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.cross_entropy(self.net(x), y)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        acc = (self.net(x).argmax(1) == y).float().mean().item()
        self.best_val_acc = max(getattr(self, "best_val_acc", 0.0), acc)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def loader() -> DataLoader:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(32, 8, generator=g)
    return DataLoader(TensorDataset(x, (x.sum(1) > 0).long()), batch_size=8)


def main() -> None:
    quiet_torch()
    model = Classifier()
    trainer = pl.Trainer(
        accelerator="cpu",
        devices=2,
        strategy="ddp_spawn",
        max_epochs=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, loader(), loader())
    print(f"best val acc {model.best_val_acc:.3f}", flush=True)  # the bug: set in the spawned copies only
