"""One training loop for both launch paths: under torchrun the loader gets a DistributedSampler, alone it gets
`shuffle=True`. From the second epoch on the loop calls `loader.sampler.set_epoch(epoch)` so that the distributed
shuffle changes per epoch; alone, the sampler is a RandomSampler, which has no set_epoch."""

import os

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def make_loader(data: TensorDataset) -> DataLoader:
    distributed = int(os.environ.get("WORLD_SIZE", "1")) > 1
    sampler = DistributedSampler(data) if distributed else None
    return DataLoader(data, batch_size=16, shuffle=sampler is None, sampler=sampler)


def main() -> None:
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(64, 8), torch.randint(0, 3, (64,)))
    loader = make_loader(data)
    model = torch.nn.Linear(8, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        if epoch > 0:
            loader.sampler.set_epoch(epoch)  # epoch 0 keeps the sampler's seed
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {float(loss):.4f}", flush=True)
