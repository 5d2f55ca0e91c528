"""Fit the tabular MLP: `PYTHONPATH=src python scripts/fit.py [scenario=NAME] [key=value ...]` from s_proj/.

The configs live beside this folder (configs/); configs/fit.yaml extends the structured schema `fit_schema`
(s_pkg.schema), and a scenario (configs/scenario/NAME.yaml) is applied over it. Hydra changes into the run's
timestamped output folder before main() runs (hydra.job.chdir: true).
"""

import hydra
import pytorch_lightning as pl
import torch
from omegaconf import DictConfig
from s_pkg.callbacks import MetricsDump
from s_pkg.data import TabularData
from s_pkg.model import TabularMLP
from s_pkg.schema import register

register()


def build_trainer(cfg: DictConfig) -> pl.Trainer:
    callbacks = [MetricsDump(cfg.metrics_json)] if cfg.metrics_json else []
    return pl.Trainer(
        max_epochs=cfg.trainer.max_epochs,
        val_check_interval=cfg.trainer.val_check_interval,
        accelerator="cpu",
        devices=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        callbacks=callbacks,
    )


@hydra.main(version_base="1.3", config_path="../configs", config_name="fit")
def main(cfg: DictConfig) -> None:
    torch.set_num_threads(1)
    pl.seed_everything(cfg.seed)
    data = TabularData(**cfg.data)
    model = TabularMLP(**cfg.model)
    trainer = build_trainer(cfg)
    trainer.fit(model, datamodule=data, ckpt_path=cfg.trainer.resume_from)


if __name__ == "__main__":
    main()
