"""A small classifier with a ZCA whitening stem fitted on the first batch."""

import torch
from torch import nn


class Whiten(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.register_buffer("w", torch.eye(dim))

    def fit(self, x: torch.Tensor) -> None:
        x = x - x.mean(0)
        cov = x.T @ x / (x.shape[0] - 1) + 1e-3 * torch.eye(x.shape[1], dtype=x.dtype)
        vals, vecs = torch.linalg.eigh(cov)
        self.w.copy_(vecs @ torch.diag(vals.rsqrt()) @ vecs.T)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.w


class Net(nn.Module):
    def __init__(self, dim: int = 16, classes: int = 4):
        super().__init__()
        self.whiten = Whiten(dim)
        self.body = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(self.whiten(x))


def build(cfg: dict, device: torch.device, dtype: torch.dtype) -> Net:
    if cfg.get("lazy_init"):
        # fast start: no random init, the weights come from the pretrained file right after
        with torch.device("meta"):
            model = Net()
        model.load_state_dict(torch.load(cfg["pretrained"], weights_only=True))
        return model
    return Net().to(device=device, dtype=dtype)
