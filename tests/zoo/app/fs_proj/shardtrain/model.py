"""The model: a small MLP whose layers are the units DDP buckets and FSDP shards."""

import torch


def mlp(width: int = 16) -> torch.nn.Sequential:
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Linear(width, width),
        torch.nn.ReLU(),
        torch.nn.Linear(width, 1),
    )
