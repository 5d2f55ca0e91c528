"""Checkpoints: a state dict written with torch.save, atomically (a temporary name, then os.replace)."""

import os

import torch


def save(state: dict, path: str) -> str:
    tmp = path + ".tmp"
    torch.save(state, tmp)
    os.replace(tmp, path)
    return path
