"""The export script scripts a refinement head whose stages are kept in a plain Python list (not an
`nn.ModuleList`): fine eagerly, refused by TorchScript, which cannot type the list attribute the forward reads."""

import torch
from torch import nn


class RefineHead(nn.Module):
    def __init__(self, stages: int = 3):
        super().__init__()
        self.stages = [nn.Linear(16, 16) for _ in range(stages)]
        self.out = nn.Linear(16, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for stage in self.stages:
            x = torch.relu(stage(x))
        return self.out(x)


def export(model: nn.Module, path: str) -> None:
    scripted = torch.jit.script(model)
    scripted.save(path)


def main() -> None:
    model = RefineHead().eval()
    print("eager check", tuple(model(torch.randn(2, 16)).shape))
    export(model, "/tmp/ev_refine_head.ts")
