"""Precision settings: the dtype of the model, autocast and the loss scaler."""

import torch

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}


def dtype_of(precision: str) -> torch.dtype:
    return DTYPES[precision]


def whiten(feats: torch.Tensor) -> torch.Tensor:
    """Decorrelate the features with the Cholesky factor of their covariance (computed in the model's dtype)."""
    centred = feats - feats.mean(0, keepdim=True)
    cov = centred.T @ centred / feats.shape[0] + 1e-3 * torch.eye(feats.shape[1], dtype=feats.dtype)
    chol = torch.linalg.cholesky(cov)
    return torch.linalg.solve_triangular(chol, centred.T, upper=False).T


def make_scaler(precision: str) -> torch.amp.GradScaler:
    return torch.amp.GradScaler("cpu", enabled=precision == "fp16")
