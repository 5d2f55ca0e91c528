"""A data pipeline's Python labels meet autograd: torch's own INTERNAL ASSERT in the backward of `bool ** tensor`.

The annotations are read from JSON, so each sample's label is a Python int, and the loss weights every
sample by a learned focusing power: `(label == POSITIVE) ** gamma`, with `gamma` a parameter. With a
tensor label that comparison is a bool tensor; with a Python label it is a Python bool, and the power is
`Tensor.__rpow__` of a bool scalar. The forward is right (1 or 0); the backward fails inside torch:
`false INTERNAL ASSERT FAILED at ".../c10/core/Scalar.cpp":42, please report a bug to PyTorch. unknown
ivalue tag 4` (pytorch/pytorch#182283, reproduced here with torch 2.13.0+cpu).
"""

import json

import torch

POSITIVE = 1
ANNOTATIONS = json.dumps([{"x": [0.1 * i, 0.2, -0.3, 1.0], "label": i % 2} for i in range(8)])


class FocalHead(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 1)
        self.gamma = torch.nn.Parameter(torch.tensor(2.0))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.linear(x)).squeeze(-1)


def main() -> None:
    samples = json.loads(ANNOTATIONS)
    head = FocalHead()
    opt = torch.optim.SGD(head.parameters(), lr=0.1)
    for step in range(3):
        losses = []
        for s in samples:
            p = head(torch.tensor(s["x"]))
            weight = (s["label"] == POSITIVE) ** head.gamma  # the positives' weight is learned
            target = torch.tensor(float(s["label"]))
            losses.append(weight * torch.nn.functional.binary_cross_entropy(p, target))
        loss = torch.stack(losses).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
