"""The project's LightningModules: an MLP classifier, and a variant that steps its optimizer by hand."""

import pytorch_lightning as pl
import torch
from torch.nn import functional as F


class LitMLP(pl.LightningModule):
    def __init__(self, features: int, classes: int, hidden: int = 16, lr: float = 0.05):
        super().__init__()
        self.lr = lr
        self.net = torch.nn.Sequential(
            torch.nn.Linear(features, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, classes)
        )

    def forward(self, x):
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
        return torch.optim.SGD(self.parameters(), lr=self.lr)


class ManualMLP(LitMLP):
    """Steps the optimizer itself (written for gradient accumulation across odd batch counts)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.automatic_optimization = False

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        opt.zero_grad()
        self.manual_backward(loss)
        opt.step()
        self.log("train_loss", loss)


class TracedMLP(LitMLP):
    """Writes each step's loss to a trace file it keeps open."""

    def __init__(self, *args, trace_path: str = "trace.log", **kwargs):
        super().__init__(*args, **kwargs)
        self.trace = open(trace_path, "a")  # noqa: SIM115 (kept open for the whole run)

    def training_step(self, batch, batch_idx):
        loss = super().training_step(batch, batch_idx)
        self.trace.write(f"{batch_idx} {loss.item()}\n")
        return loss
