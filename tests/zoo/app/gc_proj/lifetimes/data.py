"""The dataset: each shard is decoded into a spill file and samples are cut from its mapped tensor."""

import os

import torch
from torch.utils.data import DataLoader, Dataset

from lifetimes.shards import DIM, SpillFile

PER_SHARD = 4096


class SpilledShards(Dataset):
    def __init__(self, root: str, shards: int):
        self.root = root
        self.shards = shards

    def __len__(self) -> int:
        return self.shards * PER_SHARD

    def _decode(self, shard: int) -> torch.Tensor:
        spill = SpillFile(os.path.join(self.root, f"shard-{shard:03d}-{os.getpid()}.f32"), PER_SHARD * DIM * 4)
        feats = spill.tensor()
        feats.fill_(float(shard))
        return feats

    def __getitem__(self, i: int) -> torch.Tensor:
        feats = self._decode(i // PER_SHARD)
        row = feats[i % PER_SHARD]
        return row * 0.5


def spilled_loader(root: str) -> DataLoader:
    return DataLoader(SpilledShards(root, shards=8), batch_size=16, num_workers=2)
