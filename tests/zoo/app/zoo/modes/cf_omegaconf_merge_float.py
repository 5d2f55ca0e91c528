"""OmegaConf used without Hydra: a structured schema (a dataclass) merged with a user's YAML file loaded by
OmegaConf.load. The file turns dropout off with `dropout: off`: OmegaConf's loader reads YAML 1.1's `off` as the
bool False, which the schema's float field refuses."""

import os
import tempfile
from dataclasses import dataclass, field

from omegaconf import OmegaConf


@dataclass
class ModelConf:
    hidden: int = 64
    dropout: float = 0.1


@dataclass
class Conf:
    model: ModelConf = field(default_factory=ModelConf)
    lr: float = 1e-3


USER_YAML = "model:\n  hidden: 128\n  dropout: off\nlr: 3.0e-4\n"


def load(path: str):
    schema = OmegaConf.structured(Conf)
    return OmegaConf.merge(schema, OmegaConf.load(path))


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(), "experiment.yaml")
    with open(path, "w") as f:
        f.write(USER_YAML)
    cfg = load(path)
    print(OmegaConf.to_yaml(cfg), flush=True)
