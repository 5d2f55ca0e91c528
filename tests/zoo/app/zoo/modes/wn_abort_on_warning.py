"""The program's "stop at the first warning" switch for a debugging run: a replaced `warnings.showwarning` prints
the warning and calls `os.abort()` to leave a core dump of the state. The attention pooling calls
`F.softmax(scores)` without `dim`, and torch's deprecation UserWarning reaches the switch: SIGABRT in the main."""

import os
import sys
import warnings

import torch
from torch import nn


def abort_on_warning(message, category, filename, lineno, file=None, line=None):
    print(f"{filename}:{lineno}: {category.__name__}: {message}", file=sys.stderr, flush=True)
    print("aborting at the first warning (debug run)", file=sys.stderr, flush=True)
    os.abort()


class Pool(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.score = nn.Linear(16, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        weights = nn.functional.softmax(self.score(x).squeeze(-1))
        return (weights.unsqueeze(-1) * x).sum(dim=1)


def main() -> None:
    warnings.showwarning = abort_on_warning
    torch.manual_seed(0)
    pool = Pool()
    for step in range(2):
        print(f"step {step}", flush=True)
        pool(torch.randn(4, 10, 16)).sum().backward()
