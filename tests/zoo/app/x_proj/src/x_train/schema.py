"""The config's schema: dataclasses registered in Hydra's ConfigStore. conf/train.yaml starts from
`train_schema` and overrides its defaults; the `optim` group's two options are `sgd` and `adam`."""

from dataclasses import dataclass, field
from typing import Any

from hydra.core.config_store import ConfigStore
from omegaconf import MISSING


@dataclass(frozen=True)
class ModelConfig:
    """The architecture, frozen so that no sweep or experiment changes it by mistake."""

    _target_: str = "x_train.model.MLP"
    in_dim: int = 8
    hidden: int = 32
    n_classes: int = 2


@dataclass
class SGDConfig:
    _target_: str = "torch.optim.SGD"
    _partial_: bool = True
    lr: float = 0.1


@dataclass
class AdamConfig:
    _target_: str = "torch.optim.Adam"
    _partial_: bool = True
    lr: float = 0.001


@dataclass
class TrainerConfig:
    max_epochs: int = 1
    accumulate_grad_batches: int = 1
    limit_train_batches: float = 1.0


@dataclass
class DataConfig:
    rows: int = 64
    batch_size: int = 8
    use_datamodule: bool = True


@dataclass
class TrainConfig:
    model: ModelConfig = field(default_factory=ModelConfig)
    optim: Any = MISSING
    trainer: TrainerConfig = field(default_factory=TrainerConfig)
    data: DataConfig = field(default_factory=DataConfig)
    momentum: float = 0.9
    fast_dev: bool = False
    seed: int = 0


def register() -> None:
    cs = ConfigStore.instance()
    cs.store(name="train_schema", node=TrainConfig)
    cs.store(group="optim", name="sgd", node=SGDConfig)
    cs.store(group="optim", name="adam", node=AdamConfig)
