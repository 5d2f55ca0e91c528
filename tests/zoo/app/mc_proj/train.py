"""mc_proj's entry: `python train.py case=NAME [HYDRA OVERRIDES...]` (a @hydra.main app).

The config group `case` (conf/case/NAME.yaml) selects a recorded experiment; `case=none` trains normally.
"""

import faulthandler
import os

import hydra
import pytorch_lightning as pl
from hydra.core.hydra_config import HydraConfig
from mcfit import resolvers
from omegaconf import DictConfig, OmegaConf

faulthandler.enable()  # a native crash prints the Python stack of every process that runs this file


@hydra.main(config_path="conf", config_name="train", version_base="1.3")
def main(cfg: DictConfig) -> None:
    out = HydraConfig.get().runtime.output_dir
    os.environ.setdefault("WANDB_MODE", "offline")
    os.environ.setdefault("WANDB_DIR", out)
    pl.seed_everything(cfg.seed, workers=True)

    datamodule = hydra.utils.instantiate(cfg.data, _recursive_=False, workdir=out)
    model = hydra.utils.instantiate(cfg.model, _recursive_=False)
    callbacks = [hydra.utils.instantiate(c) for c in cfg.callbacks.values()]
    logger = hydra.utils.instantiate(cfg.logger, save_dir=out)
    trainer = hydra.utils.instantiate(cfg.trainer, callbacks=callbacks, logger=logger)
    logger.log_hyperparams(OmegaConf.to_container(cfg, resolve=True))
    trainer.fit(model, datamodule=datamodule)
    print(f"done: {trainer.global_step} steps, outputs in {out}")


if __name__ == "__main__":
    resolvers.register()
    main()
