"""Scoring shards of speech features in spawned children (torch.multiprocessing.spawn, one per shard); the
LSTM acoustic model takes 80 filterbank features, shard 1 was extracted with an older recipe of 40."""

import os
import tempfile

import torch
import torch.multiprocessing as mp
from torch import nn

FEATS = {0: 80, 1: 40}


def score(index: int, folder: str) -> None:
    torch.manual_seed(0)
    model = nn.LSTM(80, 64, batch_first=True)
    feats = torch.load(os.path.join(folder, f"shard{index}.pt"))
    with torch.no_grad():
        out, _ = model(feats)
    torch.save(out.mean(), os.path.join(folder, f"score{index}.pt"))


def main() -> None:
    folder = tempfile.mkdtemp()
    for i, dim in FEATS.items():
        torch.save(torch.randn(4, 50, dim), os.path.join(folder, f"shard{i}.pt"))
    print(f"scoring {len(FEATS)} shards in spawned children", flush=True)
    mp.spawn(score, args=(folder,), nprocs=len(FEATS))
    print("scores", [torch.load(os.path.join(folder, f"score{i}.pt")).item() for i in FEATS])
