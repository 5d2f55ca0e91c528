"""The trainer's structured config, stored in Hydra's ConfigStore and used as the `trainer` node's schema."""

from dataclasses import dataclass

from hydra.core.config_store import ConfigStore


@dataclass
class TrainerConf:
    epochs: int = 1
    accumulate: int = 1
    log_every: int = 2


def register() -> None:
    ConfigStore.instance().store(group="trainer", name="base_trainer", node=TrainerConf)
