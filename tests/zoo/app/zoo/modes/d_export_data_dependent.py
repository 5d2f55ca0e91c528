"""torch.export of a gating module whose forward branches on a tensor's value (route to the expert only when the
batch's mean gate is high): export refuses data-dependent control flow."""

import torch


class GatedBlock(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.gate = torch.nn.Linear(16, 1)
        self.expert = torch.nn.Linear(16, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        g = torch.sigmoid(self.gate(x))
        if g.mean() > 0.5:
            return x + self.expert(x) * g
        return x


def main() -> None:
    model = GatedBlock().eval()
    example = torch.randn(4, 16)
    print("eager:", model(example).shape)
    exported = torch.export.export(model, (example,))
    print(exported)
