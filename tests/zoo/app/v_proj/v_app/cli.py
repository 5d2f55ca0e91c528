"""The entry point: `python -m v_app.cli experiment=NAME` from the project root; the arguments are Hydra overrides."""

import sys

from hydra import compose, initialize_config_module
from omegaconf import DictConfig

from v_app.loop import fit


def load_config(overrides: list[str]) -> DictConfig:
    initialize_config_module(config_module="v_app.conf", version_base="1.3")
    return compose(config_name="config", overrides=overrides)


def main() -> None:
    cfg = load_config(sys.argv[1:])
    fit(cfg)


if __name__ == "__main__":
    main()
