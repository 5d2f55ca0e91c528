"""torch.jit.script of a forward that takes **kwargs: TorchScript refuses it (NotSupportedError)."""

import torch


class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)

    def forward(self, x, **kwargs):
        return self.fc(x)


def export(model: torch.nn.Module):
    return torch.jit.script(model)


def main() -> None:
    torch.set_num_threads(1)
    export(Head())
