"""A small text-detection trainer: Hydra + PyTorch Lightning + wandb, like the pipelines in the crash reports.

It knows nothing of crashmatrix. Two faults are planted behind its own keys, so tests and the
README have a real crash and a real failure to find:

- `fault.worker_segv=true`: a DataLoader worker reads address 0 in `__getitem__` (SIGSEGV). Only
  in a worker: with `num_workers=0` nothing happens, so the crash needs a loader with workers.
- `data.image_size` not a multiple of 4: the predicted map and the mask differ in size, and the
  loss raises `ValueError: Target size (...) must be the same as input size (...)`.

    python examples/ocr_app/train.py data.dataloaders.train_dataloader.num_workers=2 fault.worker_segv=true
"""

from __future__ import annotations

import ctypes
import logging
import os

import hydra
import pytorch_lightning as pl
import torch
import torch.nn.functional as F
from omegaconf import DictConfig
from torch import nn
from torch.utils.data import DataLoader, Dataset, get_worker_info

log = logging.getLogger("ocr_app")


class SyntheticText(Dataset):
    """Images with a few bright bars ("words") and their masks; item i is the same on every run."""

    def __init__(self, n: int, size: int, channels: int, seed: int, segv_in_worker: bool = False):
        self.n, self.size, self.channels, self.seed = n, size, channels, seed
        self.segv_in_worker = segv_in_worker

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        if self.segv_in_worker and get_worker_info() is not None:
            ctypes.string_at(0)  # a real read of address 0: the worker dies by SIGSEGV
        g = torch.Generator().manual_seed(self.seed * 100003 + i)
        mask = torch.zeros(1, self.size, self.size)
        for _ in range(3):
            y = int(torch.randint(0, self.size - 4, (1,), generator=g))
            x = int(torch.randint(0, self.size // 2, (1,), generator=g))
            w = int(torch.randint(4, self.size // 2, (1,), generator=g))
            mask[:, y : y + 3, x : x + w] = 1.0
        noise = 0.1 * torch.rand(self.channels, self.size, self.size, generator=g)
        return mask.expand(self.channels, -1, -1) * 0.8 + noise, mask


class TextData(pl.LightningDataModule):
    """One DataLoader per stage, each built from its own block of `data.dataloaders`."""

    def __init__(self, cfg: DictConfig, seed: int, segv_in_worker: bool):
        super().__init__()
        self.cfg, self.seed, self.segv_in_worker = cfg, seed, segv_in_worker

    def _loader(self, stage: str, offset: int) -> DataLoader:
        d = self.cfg
        dataset = SyntheticText(
            d.num_samples,
            d.image_size,
            d.channels,
            self.seed + offset,
            segv_in_worker=self.segv_in_worker and stage == "train",
        )
        lc = d.dataloaders[f"{stage}_dataloader"]
        loader = DataLoader(
            dataset,
            batch_size=lc.batch_size,
            shuffle=stage == "train",
            num_workers=lc.num_workers,
            pin_memory=lc.pin_memory,
            persistent_workers=lc.persistent_workers,
        )
        log.info(
            "%s_dataloader: num_workers=%d pin_memory=%s persistent_workers=%s",
            stage,
            loader.num_workers,
            loader.pin_memory,
            loader.persistent_workers,
        )
        return loader

    def train_dataloader(self):
        return self._loader("train", 0)

    def val_dataloader(self):
        return self._loader("val", 1)

    def test_dataloader(self):
        return self._loader("test", 2)

    def predict_dataloader(self):
        return self._loader("predict", 3)


class TextDetector(pl.LightningModule):
    """A two-level encoder and a 4x upsampling head: a probability map of text, DBNet in miniature."""

    def __init__(self, channels: int, width: int, lr: float, log_images: bool):
        super().__init__()
        self.lr, self.log_images = lr, log_images
        self.net = nn.Sequential(
            nn.Conv2d(channels, width, 3, stride=2, padding=1),
            nn.BatchNorm2d(width),
            nn.ReLU(),
            nn.Conv2d(width, 2 * width, 3, stride=2, padding=1),
            nn.BatchNorm2d(2 * width),
            nn.ReLU(),
            nn.Conv2d(2 * width, 1, 1),
        )

    def forward(self, x):
        return F.interpolate(self.net(x), scale_factor=4, mode="bilinear", align_corners=False)

    def _loss(self, batch):
        images, masks = batch
        logits = self(images)
        return logits, F.binary_cross_entropy_with_logits(logits, masks)

    def training_step(self, batch, batch_idx):
        _, loss = self._loss(batch)
        self.log("train/loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        logits, loss = self._loss(batch)
        self.log("val/loss", loss)
        if self.log_images and isinstance(self.logger, pl.loggers.WandbLogger):
            # As in the reports: every validation batch sends an image to wandb.
            shown = torch.cat([batch[0][0, :1], batch[1][0], torch.sigmoid(logits[0])], dim=-1)
            self.logger.log_image(key="val/prediction", images=[shown.float().cpu()], caption=[f"batch {batch_idx}"])

    def test_step(self, batch, batch_idx):
        _, loss = self._loss(batch)
        self.log("test/loss", loss)

    def predict_step(self, batch, batch_idx):
        return torch.sigmoid(self(batch[0])) > 0.5

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.lr)


def make_logger(cfg: DictConfig, out_dir: str):
    if not cfg.logger.enabled:
        return False
    from pytorch_lightning.loggers import WandbLogger

    # The environment wins over the config: that is how CI (and crashmatrix's wandb axis) picks the mode.
    mode = os.environ.get("WANDB_MODE", cfg.logger.mode)
    return WandbLogger(project=cfg.logger.project, save_dir=os.environ.get("WANDB_DIR", out_dir), mode=mode)


@hydra.main(config_path="conf", config_name="config", version_base=None)
def main(cfg: DictConfig) -> None:
    pl.seed_everything(cfg.seed, verbose=False)
    out_dir = hydra.core.hydra_config.HydraConfig.get().runtime.output_dir
    data = TextData(cfg.data, cfg.seed, segv_in_worker=cfg.fault.worker_segv)
    model = TextDetector(cfg.data.channels, cfg.model.width, cfg.model.lr, cfg.log_images)
    trainer = pl.Trainer(
        **cfg.trainer,
        logger=make_logger(cfg, out_dir),
        default_root_dir=out_dir,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    for stage in cfg.stages:
        if stage == "fit":
            trainer.fit(model, datamodule=data)
        elif stage == "test":
            trainer.test(model, datamodule=data)
        elif stage == "predict":
            trainer.predict(model, datamodule=data)
        else:
            raise ValueError(f"stages: unknown stage {stage!r} (fit, test, predict)")
    print(f"ocr_app: done ({', '.join(cfg.stages)}) in {out_dir}")


if __name__ == "__main__":
    main()
