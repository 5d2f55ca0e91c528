"""Structured configs: the schemas the YAML options extend (`defaults: [base_optim]`), registered in Hydra's
ConfigStore before the app composes its config."""

from dataclasses import dataclass

from hydra.core.config_store import ConfigStore
from omegaconf import MISSING


@dataclass
class OptimConfig:
    """An optimizer, built later with the model's parameters (`_partial_`)."""

    _target_: str = MISSING
    _partial_: bool = True
    lr: float = MISSING
    weight_decay: float = 0.0


@dataclass
class TabularDataConfig:
    _target_: str = "p_pkg.data.TabularDataModule"
    csv_path: str = MISSING
    batch_size: int = 16
    num_workers: int = 0
    val_rows: int = 16


def register() -> None:
    cs = ConfigStore.instance()
    cs.store(group="optim", name="base_optim", node=OptimConfig)
    cs.store(group="data", name="base_tabular", node=TabularDataConfig)
