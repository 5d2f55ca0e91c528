"""A Hydra + Lightning training app laid out as users write one (the fourth held-out set's, m_*).

python m_app/train.py case=NAME   (conf/case/NAME.yaml picks the config groups' options, as an experiment does)
"""

import os

import hydra
import pytorch_lightning as pl
import torch
from hydra.utils import instantiate
from omegaconf import DictConfig


def derive_schedule(cfg: DictConfig) -> None:
    """Scale the learning rate to the batch size and note the total steps for the scheduler."""
    cfg.model.lr = cfg.model.lr * cfg.data.batch_size / 8
    cfg.model.total_steps = cfg.trainer.max_steps


def build_trainer(cfg: DictConfig) -> pl.Trainer:
    callbacks = [instantiate(c) for c in cfg.callbacks.values()]
    logger = instantiate(cfg.logger) if cfg.logger else False
    return instantiate(cfg.trainer, callbacks=callbacks, logger=logger)


@hydra.main(version_base=None, config_path="conf", config_name="config")
def main(cfg: DictConfig) -> None:
    torch.set_num_threads(1)
    pl.seed_everything(cfg.seed)
    if cfg.derive_schedule:
        derive_schedule(cfg)
    data = instantiate(cfg.data)
    model = instantiate(cfg.model)
    trainer = build_trainer(cfg)
    ckpt = cfg.ckpt_path and os.path.join(os.path.dirname(os.path.abspath(__file__)), cfg.ckpt_path)
    trainer.fit(model, datamodule=data, ckpt_path=ckpt)


if __name__ == "__main__":
    main()
