"""A Hydra + Lightning training project laid out as lightning-hydra-template's are (the fifth held-out set's, n_*).

python n_proj/train.py experiment=NAME   (configs/experiment/NAME.yaml overrides the groups' defaults)
"""

import hydra
import pytorch_lightning as pl
import torch
from hydra.utils import instantiate
from omegaconf import DictConfig


def build_trainer(cfg: DictConfig) -> pl.Trainer:
    callbacks = [instantiate(c) for c in cfg.callbacks.values()]
    logger = instantiate(cfg.logger)
    return instantiate(cfg.trainer, callbacks=callbacks, logger=logger)


@hydra.main(version_base="1.3", config_path="configs", config_name="train.yaml")
def main(cfg: DictConfig) -> None:
    torch.set_num_threads(1)
    pl.seed_everything(cfg.seed)
    datamodule = instantiate(cfg.data)
    model = instantiate(cfg.model)
    trainer = build_trainer(cfg)
    trainer.fit(model, datamodule=datamodule)


if __name__ == "__main__":
    main()
