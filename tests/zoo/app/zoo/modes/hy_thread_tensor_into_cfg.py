"""A statistics thread computes the data's per-feature mean and std while the model is built, and stores them in
the config for the normaliser; the values it stores are tensors. The main then reads them from the config."""

import threading

import torch
from omegaconf import OmegaConf

CFG = OmegaConf.create({"data": {"n": 256, "dim": 6, "mean": "???", "std": "???"}, "model": {"hidden": 16}})


def compute_stats(cfg, x: torch.Tensor) -> None:
    cfg.data.mean = x.mean(0)
    cfg.data.std = x.std(0)


def main() -> None:
    x = torch.randn(CFG.data.n, CFG.data.dim) * 3 + 1
    stats = threading.Thread(target=compute_stats, args=(CFG, x), name="stats")
    stats.start()
    model = torch.nn.Sequential(torch.nn.Linear(CFG.data.dim, CFG.model.hidden), torch.nn.ReLU())
    stats.join()
    print("stats ready", flush=True)
    mean, std = torch.as_tensor(CFG.data.mean), torch.as_tensor(CFG.data.std)
    print(model((x - mean) / std).shape, flush=True)
