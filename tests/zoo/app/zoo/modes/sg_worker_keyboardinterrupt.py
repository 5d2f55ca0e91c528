"""A clip dataset that ends an epoch early when a STOP file appears ("touch STOP to stop after this batch"), by
raising KeyboardInterrupt from __getitem__, as Ctrl-C would. The main writes STOP itself once the loss is low
enough. In 2 DataLoader workers the KeyboardInterrupt ends each worker quietly, and the main, waiting for its
next batch, finds them gone."""

import os
import tempfile

import torch
from torch.utils.data import DataLoader, Dataset


class Clips(Dataset):
    def __init__(self, stop_file: str) -> None:
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(512, 16, generator=g)
        self.stop_file = stop_file

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int) -> torch.Tensor:
        if os.path.exists(self.stop_file):
            raise KeyboardInterrupt("STOP file found")
        return self.x[i]


def main() -> None:
    torch.manual_seed(0)
    stop_file = os.path.join(tempfile.mkdtemp(prefix="sg_stop_"), "STOP")
    loader = DataLoader(Clips(stop_file), batch_size=8, num_workers=2, prefetch_factor=1)
    model = torch.nn.Linear(16, 16)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, x in enumerate(loader):
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
        if step == 3:
            open(stop_file, "w").close()
    print("epoch done", flush=True)
