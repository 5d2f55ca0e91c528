"""Synthetic blobs: a few Gaussian clusters, one per class."""

import torch
from omegaconf import DictConfig
from torch.utils.data import DataLoader, TensorDataset


def blobs(cfg: DictConfig) -> TensorDataset:
    g = torch.Generator().manual_seed(0)
    labels = torch.arange(cfg.n) % cfg.classes
    centres = torch.randn(cfg.classes, cfg.features, generator=g) * 3
    x = centres[labels] + torch.randn(cfg.n, cfg.features, generator=g)
    return TensorDataset(x, labels)


def make_data(cfg: DictConfig):
    dataset = blobs(cfg)
    if cfg.stream:
        return dataset  # streamed shards are iterated as they come
    return DataLoader(dataset, batch_size=cfg.batch_size, shuffle=True)
