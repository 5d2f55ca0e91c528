"""Train a small classifier with the trainer its config picks (`trainer: gpu` by default: 2 GPUs).

python src/train.py                     # on a machine with 2 GPUs
python src/train.py trainer=default     # anywhere
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the project root: `src.*` targets import

import hydra  # noqa: E402
import pytorch_lightning as pl  # noqa: E402
from omegaconf import DictConfig  # noqa: E402


@hydra.main(version_base="1.3", config_path="../configs", config_name="train")
def main(cfg: DictConfig) -> None:
    pl.seed_everything(cfg.seed, workers=True)
    data = hydra.utils.instantiate(cfg.data)
    model = hydra.utils.instantiate(cfg.model)
    trainer = hydra.utils.instantiate(cfg.trainer)
    print(f"trainer: accelerator={type(trainer.accelerator).__name__} devices={trainer.num_devices}", flush=True)
    trainer.fit(model=model, datamodule=data)


if __name__ == "__main__":
    main()
