"""Train the MLP: `python -m q_pkg.train [case=NAME] [key=value ...]` from the project's root (q_proj/).

The configs ship inside the package (q_pkg/conf/); a case (conf/case/NAME.yaml) is applied over them.
"""

import hydra
import pytorch_lightning as pl
import torch
from hydra.utils import instantiate
from omegaconf import DictConfig

from q_pkg.resolvers import register

register()


def build_trainer(cfg: DictConfig) -> pl.Trainer:
    callbacks = [instantiate(c) for c in cfg.get("callbacks", {}).values()]
    return instantiate(cfg.trainer, callbacks=callbacks)


@hydra.main(version_base="1.3", config_path="conf", config_name="config")
def main(cfg: DictConfig) -> None:
    torch.set_num_threads(1)
    pl.seed_everything(cfg.seed)
    datamodule = instantiate(cfg.data, _convert_="all")
    model = instantiate(cfg.model)
    trainer = build_trainer(cfg)
    trainer.fit(model, datamodule=datamodule)
    if cfg.test_after_fit:
        trainer.test(model, datamodule=datamodule)


if __name__ == "__main__":
    main()
