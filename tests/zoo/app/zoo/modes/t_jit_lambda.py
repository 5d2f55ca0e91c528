"""Exporting a scoring function with torch.jit.script; its body weighs the features with map(lambda ...), which
TorchScript does not compile (`UnsupportedNodeError: Lambda aren't supported`)."""

import torch


def score(x: torch.Tensor, weights: list[float]) -> torch.Tensor:
    return torch.stack(list(map(lambda w: w * x, weights))).sum(0)


def export() -> torch.jit.ScriptFunction:
    return torch.jit.script(score)


def main() -> None:
    scripted = export()
    print(scripted(torch.ones(3), [0.5, 0.25, 0.25]))
