"""torch.compile(fullgraph=True) of a forward that branches on a tensor's value: dynamo refuses the graph break."""

import torch


def forward(x: torch.Tensor) -> torch.Tensor:
    if x.sum() > 0:  # data-dependent control flow
        return x * 2
    return x - 1


def main() -> None:
    compiled = torch.compile(forward, backend="eager", fullgraph=True)
    print(compiled(torch.randn(4)))
