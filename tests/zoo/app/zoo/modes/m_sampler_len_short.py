"""A sampler that keeps the samples with a label, whose __len__ counts them before the filter changed:
len(loader) is 3 batches, 4 come; OneCycleLR sized from len(loader) steps past its end."""

import torch
from torch.utils.data import DataLoader, Sampler, TensorDataset


class LabelledSampler(Sampler):
    def __init__(self, labels):
        self.labels = labels

    def __iter__(self):
        return iter([i for i, y in enumerate(self.labels) if y >= 0])

    def __len__(self):
        return 12  # counted when unlabelled samples were marked -1; they are now 0


def main() -> None:
    torch.set_num_threads(1)
    x, y = torch.randn(16, 4), torch.zeros(16, dtype=torch.long)
    loader = DataLoader(TensorDataset(x, y), batch_size=4, sampler=LabelledSampler(y.tolist()))
    model = torch.nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=len(loader))
    for xb, yb in loader:
        torch.nn.functional.cross_entropy(model(xb), yb).backward()
        opt.step()
        sched.step()
