"""The entry script, laid out as lightning-hydra-template's src/train.py: the project's root is found by its
`.project-root` marker and put on sys.path, so the code is imported as `src.*`; Hydra's config_path is relative
to this file; each run writes under logs/train/runs/<timestamp>/ of the folder it is started from.

python ABS/d_proj/src/train.py experiment=NAME   (configs/experiment/NAME.yaml)
"""

import sys
from pathlib import Path
from typing import Any


def _setup_root(indicator: str = ".project-root") -> Path:
    for folder in Path(__file__).resolve().parents:
        if (folder / indicator).exists():
            if str(folder) not in sys.path:
                sys.path.insert(0, str(folder))
            return folder
    raise FileNotFoundError(f"no {indicator} above {__file__}")


_setup_root()

import hydra  # noqa: E402
import pytorch_lightning as pl  # noqa: E402
from omegaconf import DictConfig  # noqa: E402

from src.models.lit_module import LitClassifier  # noqa: E402
from src.utils.instantiators import instantiate_callbacks  # noqa: E402
from src.utils.pylogger import get_logger  # noqa: E402

log = get_logger(__name__)


def train(cfg: DictConfig) -> tuple[dict[str, Any], dict[str, Any]]:
    pl.seed_everything(cfg.seed, workers=True)

    log.info(f"Instantiating datamodule <{cfg.data._target_}>")
    datamodule: pl.LightningDataModule = hydra.utils.instantiate(cfg.data)

    log.info(f"Instantiating model <{cfg.model._target_}>")
    model: pl.LightningModule = hydra.utils.instantiate(cfg.model)

    log.info("Instantiating callbacks...")
    callbacks = instantiate_callbacks(cfg.get("callbacks"))

    log.info(f"Instantiating trainer <{cfg.trainer._target_}>")
    trainer: pl.Trainer = hydra.utils.instantiate(cfg.trainer, callbacks=callbacks)

    if cfg.get("train"):
        log.info("Starting training!")
        trainer.fit(model=model, datamodule=datamodule)
    train_metrics = dict(trainer.callback_metrics)

    if cfg.get("reload_best"):
        best = trainer.checkpoint_callback.best_model_path
        log.info(f"Reloading the best checkpoint: {best}")
        model = LitClassifier.load_from_checkpoint(best, weights_only=False)
        trainer.validate(model=model, datamodule=datamodule)

    if cfg.get("test"):
        log.info("Starting testing!")
        trainer.test(model=model, datamodule=datamodule, ckpt_path="best")
    test_metrics = dict(trainer.callback_metrics)
    return train_metrics, test_metrics


@hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
def main(cfg: DictConfig) -> None:
    train(cfg)


if __name__ == "__main__":
    main()
