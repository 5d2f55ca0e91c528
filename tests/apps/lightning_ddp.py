"""A tiny Lightning program trained on two CPU ranks (tests/test_rank_hang_speed.py): `strategy=ddp_spawn`
(or `ddp`) as its argument. Each rank prints the DistributedDataParallel settings Lightning built it with."""

import os
import sys

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


class Model(pl.LightningModule):
    def __init__(self) -> None:
        super().__init__()
        self.layer = torch.nn.Linear(8, 1)

    def training_step(self, batch, _index):
        x, y = batch
        return torch.nn.functional.mse_loss(self.layer(x), y)

    def on_train_start(self) -> None:
        ddp = self.trainer.strategy.model
        # one write of the whole line: the ranks share stdout, and print's text and newline could interleave
        os.write(sys.stdout.fileno(), f"rank {self.global_rank}: static_graph={ddp.static_graph}\n".encode())

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.01)

    def train_dataloader(self):
        return DataLoader(TensorDataset(torch.randn(64, 8), torch.randn(64, 1)), batch_size=4)


def main(argv: list[str]) -> None:
    strategy = dict(a.split("=", 1) for a in argv).get("strategy", "ddp_spawn")
    trainer = pl.Trainer(
        accelerator="cpu",
        devices=2,
        strategy=strategy,
        max_epochs=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(Model())


if __name__ == "__main__":
    main(sys.argv[1:])
