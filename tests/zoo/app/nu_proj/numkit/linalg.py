"""Linear algebra on the project's feature matrices."""

import torch


def mahalanobis_fit(feats: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The mean and the precision matrix (the inverse covariance) of in-distribution features."""
    mu = feats.mean(0)
    x = feats - mu
    cov = x.T @ x / (len(x) - 1)
    precision = torch.linalg.inv(cov)
    return mu, precision


def mahalanobis(feats: torch.Tensor, mu: torch.Tensor, precision: torch.Tensor) -> torch.Tensor:
    d = feats - mu
    return ((d @ precision) * d).sum(-1)
