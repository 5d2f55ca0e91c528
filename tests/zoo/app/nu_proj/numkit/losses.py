"""The project's losses, written by hand."""

import torch


def angular_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """The mean angle, in radians, between predicted and target directions."""
    cos = (pred * target).sum(-1) / (pred.norm(dim=-1) * target.norm(dim=-1))
    return torch.acos(cos).mean()


def spectral_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """The squared error of the two signals' spectra."""
    diff = torch.fft.rfft(pred, dim=-1) - torch.fft.rfft(target, dim=-1)
    return (diff * diff).mean()


def softmax(logits: torch.Tensor) -> torch.Tensor:
    """A softmax written out, so that the probabilities can be logged as they are."""
    e = torch.exp(logits)
    return e / e.sum(-1, keepdim=True)


def nll(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    p = softmax(logits)
    return -torch.log(p[torch.arange(len(labels)), labels]).mean()
