"""Reading the project's YAML configuration files (yaml.safe_load, no Hydra)."""

import yaml


def load_yaml(path: str) -> dict:
    with open(path) as f:
        return yaml.safe_load(f)


def merged(*paths: str) -> dict:
    cfg: dict = {}
    for path in paths:
        for section, values in load_yaml(path).items():
            cfg.setdefault(section, {}).update(values)
    return cfg
