"""The l_proj entry, laid out as lightning-hydra-template's src/train.py: the root is found by its
`.project-root` marker and put on sys.path; each run writes under a timestamped Hydra output dir.

cd l_proj && python src/train.py +experiment=NAME   (configs/experiment/NAME.yaml)
"""

import sys
from pathlib import Path


def _setup_root(indicator: str = ".project-root") -> Path:
    for folder in Path(__file__).resolve().parents:
        if (folder / indicator).exists():
            sys.path.insert(0, str(folder / "src"))
            return folder
    raise FileNotFoundError(f"no {indicator} above {__file__}")


_setup_root()

import hydra  # noqa: E402
import pytorch_lightning as pl  # noqa: E402
from omegaconf import DictConfig  # noqa: E402


def instantiate_list(cfg: DictConfig | None) -> list:
    return [hydra.utils.instantiate(c) for c in (cfg or {}).values() if c and "_target_" in c]


def train(cfg: DictConfig) -> None:
    pl.seed_everything(cfg.seed, workers=True)
    datamodule = hydra.utils.instantiate(cfg.data)
    model = hydra.utils.instantiate(cfg.model)
    callbacks = instantiate_list(cfg.get("callbacks"))
    logger = instantiate_list(cfg.get("logger")) or False
    trainer = pl.Trainer(
        default_root_dir=cfg.paths.output_dir,
        accelerator="cpu",
        devices=1,
        max_epochs=cfg.max_epochs,
        callbacks=callbacks,
        logger=logger,
        enable_progress_bar=False,
        enable_model_summary=False,
        enable_checkpointing=False,
        num_sanity_val_steps=0,
    )
    if cfg.get("train"):
        trainer.fit(model=model, datamodule=datamodule)
    if cfg.get("test"):
        trainer.test(model=model, datamodule=datamodule)


@hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
def main(cfg: DictConfig) -> None:
    train(cfg)


if __name__ == "__main__":
    main()
