"""The run's structured config: dataclasses registered in Hydra's ConfigStore as `fit_schema`, which
configs/fit.yaml extends through its defaults list, so every YAML value is checked against these types."""

from dataclasses import dataclass, field
from typing import Optional

from hydra.core.config_store import ConfigStore


@dataclass
class ModelConfig:
    features: int = 6
    hidden: int = 16
    lr: float = 0.05


@dataclass
class DataConfig:
    rows: int = 64
    batch_size: int = 8
    csv_path: Optional[str] = None


@dataclass
class TrainerConfig:
    max_epochs: int = 1
    val_check_interval: Optional[int] = None
    resume_from: Optional[str] = None


@dataclass
class FitConfig:
    model: ModelConfig = field(default_factory=ModelConfig)
    data: DataConfig = field(default_factory=DataConfig)
    trainer: TrainerConfig = field(default_factory=TrainerConfig)
    metrics_json: Optional[str] = None
    seed: int = 0


def register() -> None:
    ConfigStore.instance().store(name="fit_schema", node=FitConfig)
