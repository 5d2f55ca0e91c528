"""DataLoader workers read the vocabulary from the run's FileStore; the main wrote it under a prefix they don't use.

The main stores the vocabulary through PrefixStore("epoch0", store) (the key becomes "epoch0/vocab"); each worker
opens the FileStore and gets "vocab" with a 2 s timeout, which runs out in worker 0 first.
"""

import datetime
import os
import tempfile

import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, Dataset


class Tokens(Dataset):
    def __init__(self, path: str) -> None:
        self.path = path
        self.vocab = None

    def __len__(self) -> int:
        return 16

    def _load_vocab(self) -> list:
        store = dist.FileStore(self.path, -1)
        store.set_timeout(datetime.timedelta(seconds=2))
        return store.get("vocab").decode().split(",")

    def __getitem__(self, index: int) -> torch.Tensor:
        if self.vocab is None:
            self.vocab = self._load_vocab()
        return torch.tensor([index % len(self.vocab)])


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(), "vocab.store")
    store = dist.FileStore(path, -1)
    dist.PrefixStore("epoch0", store).set("vocab", "<pad>,<s>,</s>,the,a")
    loader = DataLoader(Tokens(path), batch_size=4, num_workers=2)
    for step, batch in enumerate(loader):
        print(f"step {step}: {batch.flatten().tolist()}", flush=True)
