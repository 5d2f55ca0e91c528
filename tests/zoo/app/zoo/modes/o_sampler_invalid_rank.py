"""Node 1 of a two-node job (its launcher's environment below): the sampler is built with the node's
process count as `num_replicas` and the global RANK as `rank`."""

import os

import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

NODE1_ENV = {"RANK": "2", "LOCAL_RANK": "0", "LOCAL_WORLD_SIZE": "2", "WORLD_SIZE": "4", "GROUP_RANK": "1"}


def make_loader(ds: TensorDataset) -> DataLoader:
    sampler = DistributedSampler(
        ds, num_replicas=int(os.environ["LOCAL_WORLD_SIZE"]), rank=int(os.environ["RANK"]), shuffle=True
    )
    return DataLoader(ds, batch_size=8, sampler=sampler)


def main() -> None:
    for key, value in NODE1_ENV.items():
        os.environ.setdefault(key, value)
    ds = TensorDataset(torch.randn(64, 4), torch.randint(0, 2, (64,)))
    print(f"rank {os.environ['RANK']} of {os.environ['WORLD_SIZE']}: building the loader", flush=True)
    loader = make_loader(ds)
    print(len(loader), flush=True)
