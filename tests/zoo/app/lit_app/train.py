"""A Lightning training script: `python lit_app/train.py model=NAME` (Regressor, FloatLoss, ...)."""

import sys

import models
import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


def loader() -> DataLoader:
    """16 samples of 4 features; the target is their sum."""
    x = torch.randn(16, 4)
    return DataLoader(TensorDataset(x, x.sum(1)), batch_size=4)


def main() -> None:
    args = dict(a.split("=", 1) for a in sys.argv[1:])
    torch.set_num_threads(1)
    model = getattr(models, args.get("model", "Regressor"))()
    trainer = pl.Trainer(
        max_epochs=1,
        accelerator="cpu",
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, loader(), ckpt_path=getattr(model, "ckpt_path", None))


if __name__ == "__main__":
    main()
