"""The trainer's settings: plain dataclasses with defaults, overridden from the command line."""

import enum
from dataclasses import dataclass


class Optim(enum.Enum):
    SGD = "sgd"
    ADAM = "adam"


@dataclass
class OptimConfig:
    lr: float = 0.1
    seed: int = 0


@dataclass(frozen=True)
class TrainConfig:
    epochs: int = 3
    lr: float = 0.1
    decay: float = 0.5
    batch_size: int = 16
