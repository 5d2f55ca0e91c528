"""A SegNet-style encoder-decoder (MaxPool2d with return_indices, MaxUnpool2d in the decoder) trained with
torch.use_deterministic_algorithms(True) for reproducible runs, on CPU. The unpooling has no deterministic
implementation: the first forward refuses to run."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class SegNet(nn.Module):
    def __init__(self, classes: int = 3):
        super().__init__()
        self.enc = nn.Conv2d(3, 8, 3, padding=1)
        self.pool = nn.MaxPool2d(2, return_indices=True)
        self.unpool = nn.MaxUnpool2d(2)
        self.dec = nn.Conv2d(8, classes, 3, padding=1)

    def forward(self, x):
        h, idx = self.pool(F.relu(self.enc(x)))
        return self.dec(self.unpool(h, idx))


def main() -> None:
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)
    model = SegNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(4, 3, 32, 32), torch.randint(0, 3, (4, 32, 32))
    for step in range(3):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.3f}", flush=True)
