"""Before quantisation the model is traced with torch.fx; its forward skips the residual branch when the input is
all zeros (padding frames), a branch on a tensor value that symbolic tracing cannot follow."""

import torch
import torch.fx


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(8, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.abs().sum() == 0:
            return x
        return x + torch.relu(self.proj(x))


def main() -> None:
    model = torch.nn.Sequential(Block(), torch.nn.Linear(8, 2))
    print(model(torch.randn(4, 8)).shape)
    traced = torch.fx.symbolic_trace(model)
    print(traced.graph)
