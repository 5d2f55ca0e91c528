"""The first epoch caches each batch's features into an LMDB store opened with a map_size meant as "plenty"
(1 MiB, from a unit slip); the put that crosses it is refused."""

import os
import tempfile

import lmdb
import torch
from torch.utils.data import DataLoader, TensorDataset


def put_features(txn, step: int, feats: torch.Tensor) -> None:
    for k, row in enumerate(feats):
        txn.put(f"{step:06d}-{k:03d}".encode(), row.numpy().tobytes())


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="ds_mapfull_"), "features.lmdb")
    env = lmdb.open(path, map_size=1 << 20)  # 1 GiB of features at most
    data = TensorDataset(torch.randn(512, 64), torch.randint(0, 2, (512,)))
    backbone = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU())
    with torch.no_grad():
        for step, (x, _) in enumerate(DataLoader(data, batch_size=32, num_workers=0)):
            with env.begin(write=True) as txn:
                put_features(txn, step, backbone(x))
            print(f"cached batch {step}", flush=True)
    print(f"cache holds {env.stat()['entries']} rows", flush=True)
