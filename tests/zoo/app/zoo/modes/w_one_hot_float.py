"""Labels read from a float array (np.loadtxt of a label column) become a float tensor; F.one_hot of it for a
soft-label loss."""

import io

import numpy as np
import torch
import torch.nn.functional as F

LABELS_CSV = "label\n0\n2\n1\n1\n0\n2\n"


def targets() -> torch.Tensor:
    labels = np.loadtxt(io.StringIO(LABELS_CSV), skiprows=1)
    return F.one_hot(torch.from_numpy(labels), num_classes=3)


def main() -> None:
    logits = torch.randn(6, 3)
    loss = -(targets() * logits.log_softmax(1)).sum(1).mean()
    print(f"loss {loss.item():.3f}")
