"""The model's settings keep the activation's module (torch.nn.functional, chosen by name) beside plain values;
dataclasses.asdict, to store the settings in the checkpoint, deep-copies every value it meets."""

import os
import tempfile
from dataclasses import asdict, dataclass
from types import ModuleType

import torch
import torch.nn.functional as F
from torch import nn


@dataclass
class ModelSettings:
    hidden: int = 16
    act_name: str = "gelu"
    act_lib: ModuleType = F


class Net(nn.Module):
    def __init__(self, s: ModelSettings) -> None:
        super().__init__()
        self.s = s
        self.fc1 = nn.Linear(8, s.hidden)
        self.fc2 = nn.Linear(s.hidden, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(getattr(self.s.act_lib, self.s.act_name)(self.fc1(x)))


def main() -> None:
    settings = ModelSettings()
    model = Net(settings)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(3):
        loss = model(torch.randn(16, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
    path = os.path.join(tempfile.mkdtemp(prefix="dc-"), "last.pt")
    torch.save({"model": model.state_dict(), "settings": asdict(settings)}, path)
    print(f"saved {path}", flush=True)
