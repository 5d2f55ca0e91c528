"""A gate's sigmoid output scaled in place (`gate *= mask`): sigmoid's backward needs its output unchanged."""

import torch


class Gated(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(8, 8)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        gate = torch.sigmoid(self.proj(x))
        gate *= mask  # in place on the tensor sigmoid saved for backward
        return (gate * x).sum()


def main() -> None:
    torch.set_num_threads(1)
    Gated()(torch.randn(4, 8), torch.ones(4, 8)).backward()
