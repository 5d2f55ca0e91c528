"""A temperature-scaling calibration stores the fitted temperature as `self.scale`, a name the model already uses
for its output scaling layer (an nn.Linear), so nn.Module refuses to replace the sub-module with a tensor."""

import torch
from torch import nn


class Classifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Linear(10, 5)
        self.scale = nn.Linear(5, 5, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.scale(torch.relu(self.body(x)))

    def calibrate(self, logits: torch.Tensor, labels: torch.Tensor) -> None:
        t = torch.ones(1, requires_grad=True)
        opt = torch.optim.LBFGS([t], lr=0.1, max_iter=20)

        def closure() -> torch.Tensor:
            opt.zero_grad()
            loss = nn.functional.cross_entropy(logits / t, labels)
            loss.backward()
            return loss

        opt.step(closure)
        self.scale = t.detach()


def main() -> None:
    torch.manual_seed(0)
    model = Classifier()
    x, y = torch.randn(40, 10), torch.randint(0, 5, (40,))
    with torch.no_grad():
        logits = model(x)
    print("calibrating the temperature on", len(x), "samples")
    model.calibrate(logits, y)
    print("temperature", model.scale)
