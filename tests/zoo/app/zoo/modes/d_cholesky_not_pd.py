"""A Mahalanobis anomaly scorer fitted on the features of one validation batch: 12 samples of 32 features give a
rank-deficient covariance, and torch.linalg.cholesky refuses it (no shrinkage, no jitter on the diagonal)."""

import torch


def fit_gaussian(features: torch.Tensor):
    mean = features.mean(dim=0)
    centred = features - mean
    cov = centred.T @ centred / (features.shape[0] - 1)
    chol = torch.linalg.cholesky(cov)
    return mean, chol


def score(x: torch.Tensor, mean: torch.Tensor, chol: torch.Tensor) -> torch.Tensor:
    z = torch.linalg.solve_triangular(chol, (x - mean).T, upper=False)
    return (z**2).sum(dim=0)


def main() -> None:
    torch.manual_seed(0)
    encoder = torch.nn.Sequential(torch.nn.Linear(64, 32), torch.nn.Tanh())
    with torch.no_grad():
        batch = torch.randn(12, 64)
        features = encoder(batch).double()
        print(f"fitting the scorer on {features.shape[0]} samples of {features.shape[1]} features")
        mean, chol = fit_gaussian(features)
        print("scores:", score(encoder(torch.randn(4, 64)).double(), mean, chol))
