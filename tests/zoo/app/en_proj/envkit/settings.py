"""Settings from the environment the launcher gives and from a KEY=VALUE file the program parses itself."""

import os
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class DistSettings:
    world_size: int
    rank: int


def dist_settings() -> DistSettings:
    world_size = int(os.environ.get("ENKIT_WORLD_SIZE", "1"))
    rank = int(os.environ.get("ENKIT_RANK", "0"))
    return DistSettings(world_size, rank)


def read_env_file(path: Path) -> dict:
    values = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, value = line.split("=", 1)
        values[key.strip()] = value.strip()
    return values


def train_settings(path: Path = ROOT / "configs" / "train.env") -> dict:
    values = read_env_file(path)
    return {
        "batch": int(values["ENKIT_BATCH"]),
        "lr": float(values["ENKIT_LR"]),
        "epochs": int(values["ENKIT_EPOCHS"]),
    }
