"""The app's LightningModules, DataModules, callbacks and logger, named by the configs' `_target_`."""

import os

import numpy as np
import pytorch_lightning as pl
import torch
from hydra.utils import get_original_cwd
from pytorch_lightning.loggers import Logger
from pytorch_lightning.utilities import rank_zero_only
from torch.nn import functional as F
from torch.utils.data import DataLoader, Dataset, TensorDataset


class LitClassifier(pl.LightningModule):
    """A tiny classifier of 8x8 one-channel images into 4 classes."""

    def __init__(self, hidden: int = 16, lr: float = 0.1):
        super().__init__()
        self.save_hyperparameters()
        self.net = torch.nn.Sequential(
            torch.nn.Flatten(), torch.nn.Linear(64, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 4)
        )

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train/loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val/loss", F.cross_entropy(self(x), y))

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.hparams.lr)


class SkipHardBatches(LitClassifier):
    """Skips a batch whose loss is above a threshold by returning None (automatic optimization), and keeps a
    running mean of the losses from each batch's outputs."""

    def __init__(self, hidden: int = 16, lr: float = 0.1):
        super().__init__(hidden, lr)
        self.recent = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        if loss.item() > 1.0:
            return None
        self.log("train/loss", loss)
        return loss

    def on_train_batch_end(self, outputs, batch, batch_idx):
        self.recent.append(outputs["loss"].detach())
        self.recent = self.recent[-8:]


class LogClassProbs(LitClassifier):
    """Logs the mean class probabilities in validation (a vector of 4, where self.log wants a scalar)."""

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.log("val/loss", F.cross_entropy(logits, y))
        self.log("val/class_probs", logits.softmax(-1).mean(0))


class RankCheckedClassifier(LitClassifier):
    """Validates that each rank's labels are in range; rank 1's shard holds a relabelled class."""

    def validation_step(self, batch, batch_idx):
        x, y = batch
        if self.global_rank == 1:
            y = y + 4
        if int(y.max()) >= 4:
            raise ValueError(f"rank {self.global_rank}: label {int(y.max())} out of range for 4 classes")
        return super().validation_step(batch, batch_idx)


class SynthImages(pl.LightningDataModule):
    """32 random 8x8 images, 4 classes; `val_fraction` of them held out for validation."""

    def __init__(self, batch_size: int = 8, val_fraction: float = 0.25, num_workers: int = 0):
        super().__init__()
        if not 0.0 < val_fraction < 1.0:
            raise ValueError(f"val_fraction must be in (0, 1), got {val_fraction}")
        self.batch_size = batch_size
        self.val_fraction = val_fraction
        self.num_workers = num_workers

    def make(self):
        g = torch.Generator().manual_seed(0)
        return TensorDataset(torch.randn(32, 1, 8, 8, generator=g), torch.randint(0, 4, (32,), generator=g))

    def setup(self, stage=None):
        full = self.make()
        n_val = int(len(full) * self.val_fraction)
        self.train_set, self.val_set = torch.utils.data.random_split(full, [len(full) - n_val, n_val])

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size, shuffle=True, num_workers=self.num_workers)

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=self.batch_size, num_workers=self.num_workers)


class TrainOnlySetup(SynthImages):
    """A setup() rewritten for the `fit` stage that assigns the training split only."""

    def setup(self, stage=None):
        if stage == "fit":
            self.train_set = self.make()


class RootRelative(Dataset):
    """Reads its label map relative to the directory the user launched from."""

    def __init__(self, base):
        self.base = base

    def __len__(self):
        return len(self.base)

    def __getitem__(self, i):
        root = get_original_cwd()
        os.path.join(root, "labels.json")
        return self.base[i]


class RootRelativeImages(SynthImages):
    """SynthImages whose datasets resolve paths from the launch directory, read by spawn workers."""

    def train_dataloader(self):
        return DataLoader(
            RootRelative(self.train_set),
            batch_size=self.batch_size,
            num_workers=self.num_workers,
            multiprocessing_context="spawn",
        )


class BestValTracker(pl.Callback):
    """Keeps the best validation accuracy at the end of each training epoch."""

    def __init__(self):
        self.best = 0.0

    def on_train_epoch_end(self, trainer, pl_module):
        acc = float(trainer.callback_metrics["val/acc"])
        self.best = max(self.best, acc)


class SampleImages(pl.Callback):
    """Logs the first images of each training batch through the logger's log_image."""

    def __init__(self, as_grid: bool = True, every_n: int = 1):
        self.as_grid = as_grid
        self.every_n = every_n

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        if batch_idx % self.every_n or not trainer.loggers:
            return
        x = batch[0][:4]
        images = [img for img in x] if self.as_grid else [x]
        trainer.loggers[0].log_image("train/samples", images, step=trainer.global_step)


class FolderLogger(Logger):
    """Writes metrics as lines and images as .npy files (HWC) under save_dir."""

    def __init__(self, save_dir: str = "logs"):
        super().__init__()
        self._save_dir = save_dir

    @property
    def name(self):
        return "folder"

    @property
    def version(self):
        return 0

    @rank_zero_only
    def log_hyperparams(self, params):
        os.makedirs(self._save_dir, exist_ok=True)

    @rank_zero_only
    def log_metrics(self, metrics, step=None):
        os.makedirs(self._save_dir, exist_ok=True)
        with open(os.path.join(self._save_dir, "metrics.txt"), "a") as f:
            f.write(f"{step} {metrics}\n")

    @rank_zero_only
    def log_image(self, key, images, step=None):
        os.makedirs(self._save_dir, exist_ok=True)
        for k, img in enumerate(images):
            hwc = np.asarray(img.detach().cpu()).transpose(1, 2, 0)
            np.save(os.path.join(self._save_dir, f"{key.replace('/', '_')}_{step}_{k}.npy"), hwc)
