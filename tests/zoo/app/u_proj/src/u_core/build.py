"""Builds the run's parts from their `_target_` configs and trains."""

import pytorch_lightning as pl
import torch
from hydra.utils import instantiate
from omegaconf import DictConfig


def build_callbacks(cfg: DictConfig | None) -> list[pl.Callback]:
    callbacks = []
    for cb_conf in (cfg or {}).values():
        if "_target_" in cb_conf:
            callbacks.append(instantiate(cb_conf))
    return callbacks


def fit(cfg: DictConfig, callbacks: list[pl.Callback]) -> None:
    torch.set_num_threads(1)
    pl.seed_everything(cfg.seed)
    datamodule = instantiate(cfg.data)
    model = instantiate(cfg.model)
    logger = instantiate(cfg.logger)
    trainer = instantiate(cfg.trainer, callbacks=callbacks, logger=logger)
    trainer.fit(model, datamodule=datamodule)
