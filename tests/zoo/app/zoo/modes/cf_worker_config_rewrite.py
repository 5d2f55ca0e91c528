"""Each DataLoader worker reads the augmentation settings from a shared YAML file at its first item; worker 0 also
"refreshes" the file (opens it for writing, which empties it, then writes the new settings a moment later).
Worker 1 reads it while it is empty: yaml.safe_load of an empty file gives None, and `cfg["crop"]` raises."""

import os
import tempfile
import time

import torch
import yaml
from torch.utils.data import DataLoader, Dataset, get_worker_info

SETTINGS = {"crop": 8, "flip": True}


class Crops(Dataset):
    def __init__(self, path: str):
        self.path = path
        self.cfg = None

    def __len__(self) -> int:
        return 32

    def settings(self) -> dict:
        if self.cfg is None:
            if get_worker_info().id == 0:
                with open(self.path, "w") as f:  # emptied here
                    time.sleep(2.0)
                    yaml.safe_dump(SETTINGS, f)
            else:
                time.sleep(0.5)
            with open(self.path) as f:
                self.cfg = yaml.safe_load(f)
        return self.cfg

    def __getitem__(self, i: int) -> torch.Tensor:
        return torch.arange(16.0)[: self.settings()["crop"]] + i


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(), "augment.yaml")
    with open(path, "w") as f:
        yaml.safe_dump(SETTINGS, f)
    for step, batch in enumerate(DataLoader(Crops(path), batch_size=4, num_workers=2)):
        print(f"step {step} batch {tuple(batch.shape)}", flush=True)
