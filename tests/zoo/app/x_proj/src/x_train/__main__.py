"""`python -m x_train experiment=NAME` (PYTHONPATH=src): compose conf/train.yaml over the structured schema,
build the model with hydra.utils.instantiate, train with a Lightning Trainer."""

from pathlib import Path

import hydra
import pytorch_lightning as pl
from hydra.utils import instantiate
from omegaconf import DictConfig

from x_train.data import BlobData, plain_loaders
from x_train.model import Classifier
from x_train.schema import register

CONF = str(Path(__file__).resolve().parents[2] / "conf")
register()


def build_trainer(cfg: DictConfig) -> pl.Trainer:
    return pl.Trainer(
        max_epochs=cfg.trainer.max_epochs,
        accumulate_grad_batches=cfg.trainer.accumulate_grad_batches,
        limit_train_batches=cfg.trainer.limit_train_batches,
        accelerator="cpu",
        devices=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )


@hydra.main(version_base="1.3", config_path=CONF, config_name="train")
def main(cfg: DictConfig) -> None:
    pl.seed_everything(cfg.seed)
    if cfg.fast_dev:
        cfg.model.hidden = 4
    model = Classifier(instantiate(cfg.model), instantiate(cfg.optim), cfg.momentum)
    trainer = build_trainer(cfg)
    if cfg.data.use_datamodule:
        trainer.fit(model, datamodule=BlobData(cfg.data.rows, cfg.data.batch_size, cfg.seed))
    else:
        train, val = plain_loaders(cfg.data.rows, cfg.data.batch_size, cfg.seed)
        trainer.fit(model, train_dataloaders=train, val_dataloaders=val)
    print(f"done: {trainer.global_step} steps")


if __name__ == "__main__":
    main()
