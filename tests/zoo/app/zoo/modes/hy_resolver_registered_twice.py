"""K-fold cross-validation: each fold builds its config with a helper that registers the `mul` resolver the
config uses; the second fold registers it again."""

import torch
from omegaconf import OmegaConf


def build_config(fold: int):
    OmegaConf.register_new_resolver("mul", lambda a, b: a * b)
    return OmegaConf.create({"fold": fold, "width": 8, "hidden": "${mul:${width},4}", "lr": 0.05})


def train_fold(cfg) -> float:
    model = torch.nn.Sequential(torch.nn.Linear(cfg.width, cfg.hidden), torch.nn.ReLU(), torch.nn.Linear(cfg.hidden, 1))
    opt = torch.optim.SGD(model.parameters(), lr=cfg.lr)
    x, y = torch.randn(64, cfg.width), torch.randn(64, 1)
    for _ in range(5):
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


def main() -> None:
    for fold in range(3):
        cfg = build_config(fold)
        print(f"fold {fold} loss {train_fold(cfg):.4f}", flush=True)
