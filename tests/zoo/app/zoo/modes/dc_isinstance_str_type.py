"""A hand-written check of the settings read from a file: isinstance(value, field.type) for each dataclass
field; with postponed annotations each field.type is the string 'int' or 'float', not a type."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, fields

import torch


@dataclass
class Settings:
    epochs: int = 2
    lr: float = 0.1
    hidden: int = 16


def load(path: str) -> Settings:
    with open(path) as f:
        raw = json.load(f)
    cfg = Settings(**raw)
    for f in fields(cfg):
        if not isinstance(getattr(cfg, f.name), f.type):
            raise TypeError(f"setting {f.name} should be {f.type}")
    return cfg


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="dc-"), "settings.json")
    with open(path, "w") as f:
        json.dump({"epochs": 3, "lr": 0.05, "hidden": 32}, f)
    cfg = load(path)
    model = torch.nn.Linear(8, cfg.hidden)
    print(f"model {model}", flush=True)
