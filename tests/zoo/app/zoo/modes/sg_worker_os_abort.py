"""A label sanity check that fails loudly: on a negative label the dataset calls os.abort() ("never train on a
corrupt shard"). One of 64 labels is -1 (an unlabelled sample left in); 2 DataLoader workers."""

import os

import torch
from torch.utils.data import DataLoader, Dataset


class Labelled(Dataset):
    def __init__(self) -> None:
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(64, 16, generator=g)
        self.y = torch.randint(0, 4, (64,), generator=g)
        self.y[37] = -1

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int):
        label = int(self.y[i])
        if label < 0:
            print(f"corrupt label {label} at sample {i}; aborting", flush=True)
            os.abort()
        return self.x[i], label


def main() -> None:
    torch.manual_seed(0)
    loader = DataLoader(Labelled(), batch_size=8, num_workers=2)
    model = torch.nn.Linear(16, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
