"""The run's seed comes from its config, where -1 means "any"; torch takes -1, but each DataLoader worker builds
its numpy Generator with `np.random.default_rng(seed + worker_id)`, and worker 0's -1 is refused."""

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info

CONFIG = {"seed": -1, "num_workers": 2}


class Jitter(Dataset):
    rng = None

    def __len__(self) -> int:
        return 16

    def __getitem__(self, i: int) -> torch.Tensor:
        return torch.full((3,), float(i)) + torch.from_numpy(self.rng.normal(0, 0.1, 3)).float()


def init_worker(worker_id: int) -> None:
    ds = get_worker_info().dataset
    ds.rng = np.random.default_rng(CONFIG["seed"] + worker_id)


def main() -> None:
    torch.manual_seed(CONFIG["seed"])
    print(f"seed {CONFIG['seed']}")
    loader = DataLoader(Jitter(), batch_size=4, num_workers=CONFIG["num_workers"], worker_init_fn=init_worker)
    for i, batch in enumerate(loader):
        print(f"batch {i}: {batch.mean():.3f}")
