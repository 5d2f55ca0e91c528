"""Structured configs kept in Hydra's ConfigStore: the optimizer's schema."""

from dataclasses import dataclass
from enum import Enum

from hydra.core.config_store import ConfigStore


class OptName(Enum):
    SGD = "sgd"
    ADAM = "adam"


@dataclass
class OptimConf:
    name: OptName = OptName.SGD
    lr: float = 0.05
    momentum: float = 0.0


def register() -> None:
    ConfigStore.instance().store(group="optim", name="optim_schema", node=OptimConf)
