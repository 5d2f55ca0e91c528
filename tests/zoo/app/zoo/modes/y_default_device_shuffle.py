"""torch.set_default_device("cuda") for convenience, then a DataLoader with shuffle=True: the sampler's
randperm runs on the GPU with a CPU generator (amdegroot/ssd.pytorch#578, NarcissusEx/CuNeRF#8)."""

import torch
from torch.utils.data import DataLoader, TensorDataset

from zoo.data import quiet_torch


def main() -> None:
    quiet_torch()
    torch.set_default_device("cuda")  # the bug: every new tensor, the sampler's too, on the GPU
    data = TensorDataset(torch.randn(128, 16), torch.randint(0, 2, (128,)))
    model = torch.nn.Linear(16, 2)
    loader = DataLoader(data, batch_size=16, shuffle=True)
    for x, y in loader:
        print(float(torch.nn.functional.cross_entropy(model(x), y)))
