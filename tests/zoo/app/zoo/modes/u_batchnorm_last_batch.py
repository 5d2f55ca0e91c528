"""A tabular classifier with BatchNorm1d trained over 17 samples in batches of 8: the last batch holds one sample,
and batch norm in training mode cannot take statistics over a single value per channel."""

import torch
from torch.utils.data import DataLoader, TensorDataset


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(6, 16), torch.nn.BatchNorm1d(16), torch.nn.ReLU(), torch.nn.Linear(16, 2)
    )
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = TensorDataset(torch.randn(17, 6), torch.randint(0, 2, (17,)))
    for x, y in DataLoader(data, batch_size=8):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
