"""An EMA wrapper forwards unknown attributes to its inner model with `__getattr__`; torch.jit.script of it."""

import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 4)

    def encode(self, x):
        return torch.tanh(self.fc(x))

    def forward(self, x):
        return self.encode(x)


class EMAWrapper(nn.Module):
    def __init__(self, inner: nn.Module):
        super().__init__()
        self.module = inner

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self.module, name)

    def forward(self, x):
        return self.encode(x)


def main() -> None:
    torch.set_num_threads(1)
    ema = EMAWrapper(Encoder())
    print(f"eager: {tuple(ema(torch.randn(2, 8)).shape)}; scripting the EMA model to ship it", flush=True)
    torch.jit.script(ema)
