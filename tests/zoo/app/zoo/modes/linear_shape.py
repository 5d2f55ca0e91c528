"""A model whose first Linear layer expects 3 features, fed batches of 5: torch's matmul refuses the shapes."""

import torch

from zoo.data import quiet_torch


class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 2)

    def forward(self, x):
        return self.fc(x)


def main() -> None:
    quiet_torch()
    print(Head()(torch.zeros(4, 5)))
