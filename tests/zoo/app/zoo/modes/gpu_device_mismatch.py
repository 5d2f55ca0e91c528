"""The model moved to the GPU, the batch left on the CPU: `Expected all tensors to be on the same device`
(the forums' most asked GPU error)."""

import torch
from torch.utils.data import DataLoader

from zoo.data import Samples, quiet_torch


def train_step(model, optimizer, x, y):
    optimizer.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x).squeeze(1), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def main() -> None:
    quiet_torch()
    model = torch.nn.Linear(4, 1).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in DataLoader(Samples(8), batch_size=4):
        print(train_step(model, optimizer, x, y))  # x, y never moved: .to("cuda") forgotten
