"""The whole model saved with torch.save (not its state_dict) for a quick export; its activation was chosen in
__init__ as a lambda, a local object that pickle cannot save by reference."""

import os
import tempfile

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, act: str = "leaky") -> None:
        super().__init__()
        self.fc1 = nn.Linear(6, 16)
        self.fc2 = nn.Linear(16, 2)
        self.act = (lambda x: nn.functional.leaky_relu(x, 0.1)) if act == "leaky" else torch.relu

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(self.act(self.fc1(x)))


def main() -> None:
    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(5):
        loss = model(torch.randn(8, 6)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("trained", loss.item(), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        torch.save(model, os.path.join(tmp, "model.pt"))
