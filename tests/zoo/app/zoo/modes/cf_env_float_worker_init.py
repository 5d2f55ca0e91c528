"""An augmentation probability taken from the environment in each DataLoader worker's worker_init_fn; the job
script exports it as a percentage (`AUG_PROB=50%`). float() refuses it in worker 0's init; the main re-raises."""

import os

import torch
from torch.utils.data import DataLoader, Dataset


class Noisy(Dataset):
    prob = 0.0

    def __len__(self) -> int:
        return 32

    def __getitem__(self, i: int) -> torch.Tensor:
        x = torch.full((4,), float(i))
        return x + torch.randn(4) if torch.rand(()) < self.prob else x


def init_worker(worker_id: int) -> None:
    info = torch.utils.data.get_worker_info()
    info.dataset.prob = float(os.environ.get("AUG_PROB", "0.5"))


def main() -> None:
    os.environ["AUG_PROB"] = "50%"  # as the job script exports it
    loader = DataLoader(Noisy(), batch_size=8, num_workers=2, worker_init_fn=init_worker)
    for step, batch in enumerate(loader):
        print(f"step {step} mean {batch.mean().item():.2f}", flush=True)
