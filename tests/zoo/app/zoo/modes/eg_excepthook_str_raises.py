"""The program replaces sys.excepthook with a one-line report; its own exception's __str__ reads an attribute
that __init__ never set. Python prints `Error in sys.excepthook:` (the AttributeError from __str__), then
`Original exception was:` with the original traceback, its message shown as `<exception str() failed>`."""

import sys

import torch


class GradOverflow(FloatingPointError):
    def __init__(self, step: int, norm: float):
        super().__init__(step, norm)
        self.step = step

    def __str__(self) -> str:
        return f"step {self.step}: grad norm {self.norm:.3g} over {self.max_norm}"


def report(exc_type, exc, tb) -> None:
    sys.stderr.write(f"training failed: {exc_type.__name__}: {exc}\n")


def main() -> None:
    sys.excepthook = report
    torch.manual_seed(0)
    net = torch.nn.Linear(8, 1)
    for step in range(4):
        x = torch.randn(16, 8) * (10.0**step)
        loss = net(x).pow(2).mean()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(net.parameters(), 1e6).item()
        if norm > 1e5:
            raise GradOverflow(step, norm)
        print(f"step {step} grad norm {norm:.3g}", flush=True)
        net.zero_grad()
