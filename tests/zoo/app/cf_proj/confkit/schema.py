"""The trainer's settings as dataclasses, built from the YAML sections with **section."""

from dataclasses import dataclass


@dataclass
class OptimConfig:
    lr: float = 0.1
    momentum: float = 0.9
    eta_min: float = 0.0


@dataclass
class TrainConfig:
    epochs: int = 3
    batch_size: int = 16
    hidden: int = 32


def build(cfg: dict) -> tuple[TrainConfig, OptimConfig]:
    return TrainConfig(**cfg.get("train", {})), OptimConfig(**cfg.get("optim", {}))
