"""The classifier and its variants."""

import pytorch_lightning as pl
import torch
import torch.nn.functional as F
from torch import nn

from lk_pkg.data import N_CLASSES, N_FEATURES


class Classifier(pl.LightningModule):
    def __init__(self, lr: float = 0.1) -> None:
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(N_FEATURES, 32), nn.ReLU(), nn.Linear(32, N_CLASSES))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val_loss", F.cross_entropy(self(x), y))

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.hparams.lr)


class WarmupClassifier(Classifier):
    """SGD with a linear warm-up of the learning rate."""

    def configure_optimizers(self):
        optimizer = torch.optim.SGD(self.parameters(), lr=self.hparams.lr, momentum=0.9)
        warmup = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=0.1, total_iters=5)
        return optimizer, warmup


class PrototypeClassifier(Classifier):
    """Keeps a running sum of each class's embedding (prototypes), updated every step."""

    def __init__(self, lr: float = 0.1) -> None:
        super().__init__(lr)
        self.register_buffer("proto_sum", torch.zeros(N_CLASSES, 32))

    def training_step(self, batch, batch_idx):
        x, y = batch
        emb = self.net[1](self.net[0](x))
        with torch.no_grad():
            self.proto_sum.scatter_add_(0, y[:, None].expand_as(emb), emb.detach())
        loss = F.cross_entropy(self.net[2](emb), y)
        self.log("train_loss", loss)
        return loss


class CachedClassifier(Classifier):
    """Trains on CachedData, whose cache rank 0 rebuilds at the start of every epoch after the first."""

    def on_train_epoch_start(self) -> None:
        if self.current_epoch > 0:
            if self.trainer.is_global_zero:
                self.trainer.datamodule.refresh()
            self.trainer.strategy.barrier()
