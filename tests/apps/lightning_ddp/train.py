"""A small Hydra + Lightning app trained with DDP on CPU (2 gloo ranks): `trainer.strategy=ddp|ddp_spawn`.

`fault=KIND:RANK` makes that rank fail at step 1: raise (ValueError: bad batch on rank R), segv (the
rank's own SIGSEGV), worker_segv (a DataLoader worker of that rank segfaults), segv_peer_busy (that rank
segfaults while the other sleeps outside any collective: Lightning's child observer, which checks its
children every few seconds, then SIGKILLs the job's own process, rank 0). crashmatrix's tests run it
unmodified, as a user's app.

Run alone, `python train.py fault=segv_peer_busy:1`: Lightning prints `[rank: 1] Child process with PID N
terminated with code -11. Forcefully terminating all other processes to avoid zombies`, and the job's
process (rank 0) dies by SIGKILL (exit 137): rank 1 failed first, rank 0 is the victim.
"""

import ctypes
import time

import hydra
import pytorch_lightning as pl
import torch
from omegaconf import DictConfig
from torch.utils.data import DataLoader, Dataset


class Batches(Dataset):
    def __init__(self, segv_in_worker: bool):
        self.segv_in_worker = segv_in_worker

    def __len__(self):
        return 32

    def __getitem__(self, i):
        if self.segv_in_worker and i >= 4:
            ctypes.string_at(0)  # a real segfault inside the DataLoader worker
        return torch.full((4,), float(i)), torch.tensor([float(i % 2)])


class Model(pl.LightningModule):
    def __init__(self, fault: str):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)
        self.kind, _, at = fault.partition(":")
        self.at = int(at) if at else -1

    def training_step(self, batch, step):
        if step == 1 and self.global_rank == self.at and self.kind == "raise":
            raise ValueError(f"bad batch on rank {self.global_rank}")
        if step == 1 and self.global_rank == self.at and self.kind in ("segv", "segv_peer_busy"):
            ctypes.string_at(0)
        if step == 1 and self.global_rank != self.at and self.kind == "segv_peer_busy":
            time.sleep(12)  # outside any collective, past the observer's next look at its children
        x, y = batch
        return torch.nn.functional.mse_loss(self.layer(x), y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.01)

    def train_dataloader(self):
        worker_segv = self.kind == "worker_segv" and self.global_rank == self.at
        return DataLoader(Batches(worker_segv), batch_size=2, num_workers=1 if self.kind == "worker_segv" else 0)


@hydra.main(version_base=None, config_path="conf", config_name="config")
def main(cfg: DictConfig) -> None:
    torch.set_num_threads(1)
    trainer = pl.Trainer(
        **cfg.trainer, logger=False, enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False
    )
    trainer.fit(Model(cfg.fault))


if __name__ == "__main__":
    main()
