"""Preprocessed shards, named after the preprocessing that made them so a changed recipe never reuses one."""

import os

import torch


def shard_name(recipe: dict, index: int) -> str:
    tag = "-".join(f"{k}={v}" for k, v in recipe.items())
    return f"shard{index:03d}-{tag}.pt"


def write_shard(folder: str, recipe: dict, index: int, tensor: torch.Tensor) -> str:
    path = os.path.join(folder, shard_name(recipe, index))
    with open(path, "wb") as f:
        torch.save(tensor, f)
    return path
