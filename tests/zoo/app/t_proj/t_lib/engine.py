"""The training entry run.py calls: build the data, loss, model and Trainer from the config, fit, then predict."""

import pytorch_lightning as pl
import torch
from omegaconf import DictConfig

from t_lib.callbacks import ConfusionMonitor, LogitWatch
from t_lib.datamodule import BlobData
from t_lib.loss import make_loss
from t_lib.model import BlobNet


def build_trainer(cfg: DictConfig, callbacks: list) -> pl.Trainer:
    return pl.Trainer(
        max_epochs=cfg.trainer.max_epochs,
        accelerator="cpu",
        devices=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        callbacks=callbacks,
    )


def train(cfg: DictConfig) -> None:
    torch.set_num_threads(1)
    pl.seed_everything(cfg.seed)
    data = BlobData(**cfg.data)
    model = BlobNet(loss_fn=make_loss(**cfg.loss), **cfg.model)
    trainer = build_trainer(cfg, callbacks_of(cfg))
    trainer.fit(model, datamodule=data)
    if cfg.predict:
        predictions = trainer.predict(model, datamodule=data)
        print(f"{len(predictions)} batches predicted")


def callbacks_of(cfg: DictConfig) -> list:
    return [ConfusionMonitor()] * bool(cfg.monitor_confusion) + [LogitWatch()] * bool(cfg.watch_logits)
