"""Persistent DataLoader workers; the dataset opens its shard again at the start of every epoch and never
closes the old handle. Under a 64-descriptor limit the worker runs out: OSError [Errno 24]."""

import os
import resource
import tempfile

import torch
from torch.utils.data import DataLoader, Dataset

SHARD = os.path.join(tempfile.gettempdir(), f"m_persistent_fd_{os.getpid()}.bin")


class Shard(Dataset):
    def __init__(self):
        self.handles = []

    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 0:
            self.handles.append(open(SHARD, "rb"))  # a fresh handle per epoch, the old one kept
        return float(i)


def as_list(items):
    return list(items)


def main() -> None:
    torch.set_num_threads(1)
    with open(SHARD, "wb") as f:
        f.write(b"\0" * 16)
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    loader = DataLoader(Shard(), batch_size=4, num_workers=1, persistent_workers=True, collate_fn=as_list)
    for _epoch in range(200):
        for batch in loader:
            sum(batch)
