"""A streaming IterableDataset (no __len__) read through a DataLoader; the OneCycleLR schedule's total steps are
taken as `epochs * len(loader)`, as they were when the data was a map-style Dataset."""

import numpy as np
import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info


class LineStream(IterableDataset):
    def __init__(self, n: int):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        start, step = (info.id, info.num_workers) if info else (0, 1)
        for i in range(start, self.n, step):
            yield torch.from_numpy(np.random.default_rng(i).standard_normal(16).astype(np.float32)), i % 4


def main() -> None:
    loader = DataLoader(LineStream(256), batch_size=16, num_workers=2)
    model = torch.nn.Linear(16, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    epochs = 2
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=epochs * len(loader))
    for _ in range(epochs):
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
