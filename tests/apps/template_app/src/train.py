"""Train then test a tiny classifier, laid out like the public Hydra + Lightning project templates.

The project root is the folder holding `.project-root`; it goes on sys.path (so `src.*` targets
import) and into PROJECT_ROOT (which configs/paths reads), as those templates do with a helper
package. Run it from anywhere:

    python src/train.py logger=csv trainer.max_epochs=1
"""

import os
import sys
from pathlib import Path


def find_root(start: Path, marker: str = ".project-root") -> Path:
    for folder in [start, *start.parents]:
        if (folder / marker).exists():
            return folder
    raise FileNotFoundError(f"no {marker} in {start} or any folder above it")


ROOT = find_root(Path(__file__).resolve().parent)
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PROJECT_ROOT", str(ROOT))

import hydra  # noqa: E402  (after the root is on sys.path, as in the templates)
import pytorch_lightning as pl  # noqa: E402
from omegaconf import DictConfig  # noqa: E402


def instantiate_all(cfg: DictConfig | None) -> list:
    """Every `_target_` block of a group (callbacks, logger); a group set to null gives none."""
    if not cfg:
        return []
    return [hydra.utils.instantiate(block) for block in cfg.values() if "_target_" in block]


@hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
def main(cfg: DictConfig) -> float:
    if cfg.get("seed") is not None:
        pl.seed_everything(cfg.seed, workers=True)
    data = hydra.utils.instantiate(cfg.data)
    model = hydra.utils.instantiate(cfg.model)
    callbacks = instantiate_all(cfg.get("callbacks"))
    loggers = instantiate_all(cfg.get("logger"))
    trainer = hydra.utils.instantiate(cfg.trainer, callbacks=callbacks, logger=loggers or False)
    if cfg.get("train"):
        trainer.fit(model=model, datamodule=data, ckpt_path=cfg.get("ckpt_path"))
    if cfg.get("test"):
        # the best checkpoint of this run, as the templates do after fitting
        trainer.test(model=model, datamodule=data, ckpt_path="best" if cfg.get("train") else cfg.get("ckpt_path"))
    print(f"output_dir={cfg.paths.output_dir}")
    return float(trainer.callback_metrics.get("val/loss", 0.0))


if __name__ == "__main__":
    main()
