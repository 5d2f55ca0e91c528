"""Evaluation on a held-out draw and a batch-size sweep, each from configs composed again with Hydra's compose API."""

import torch
from hydra import compose, initialize_config_module
from lightning_fabric import Fabric
from omegaconf import DictConfig

from v_app.data import make_data


def accuracy(fabric: Fabric, model, data: DictConfig) -> float:
    loader = fabric.setup_dataloaders(make_data(data))
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += int((model(x).argmax(1) == y).sum())
    return correct / data.n


def evaluate(fabric: Fabric, model, batch_size: int) -> float:
    initialize_config_module(config_module="v_app.conf", version_base="1.3")
    cfg = compose(config_name="config", overrides=[f"data.batch_size={batch_size}", "data.n=48"])
    score = accuracy(fabric, model, cfg.data)
    fabric.print(f"eval accuracy {score:.3f}")
    return score


def sweep(fabric: Fabric, model, overrides: list) -> dict:
    scores = {}
    for override in overrides:
        cfg = compose(config_name="config", overrides=["data.n=48", override])
        scores[override] = accuracy(fabric, model, cfg.data)
        fabric.print(f"{override}: accuracy {scores[override]:.3f}")
    return scores
