"""Train the classifier: `python src/p_pkg/train.py [scenario=NAME] [key=value ...]` from the project's root.

The configs are in ../../configs (the project's configs/); the schemas in conf.py.
"""

import hydra
import pytorch_lightning as pl
import torch
from hydra.utils import instantiate
from omegaconf import DictConfig

from p_pkg.conf import register

register()


def build_trainer(cfg: DictConfig) -> pl.Trainer:
    callbacks = [instantiate(c) for c in cfg.get("callbacks", {}).values()]
    return instantiate(cfg.trainer, callbacks=callbacks)


@hydra.main(version_base="1.3", config_path="../../configs", config_name="config")
def main(cfg: DictConfig) -> None:
    torch.set_num_threads(1)
    pl.seed_everything(cfg.seed)
    datamodule = instantiate(cfg.data)
    optimizer = instantiate(cfg.optim)
    model = instantiate(cfg.model, optimizer=optimizer)
    model.class_weights = torch.tensor(cfg.class_weights, device=cfg.device)
    trainer = build_trainer(cfg)
    trainer.fit(model, datamodule=datamodule)


if __name__ == "__main__":
    main()
