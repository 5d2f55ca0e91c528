"""A Hydra app laid out with config groups, as the public Hydra + Lightning templates are.

train.yaml's defaults pick trainer: default and logger: null (wandb and csv are the logger's
options); experiment/ holds global overrides reached only with +experiment=...; trainer.precision
exists only as a comment, so Hydra refuses it without +. The app prints its composed config as
one JSON line (`config: {...}`) and its arguments (`argv: [...]`), for tests to assert on what
reached it.
"""

import json
import sys

import hydra
from omegaconf import DictConfig, OmegaConf


@hydra.main(version_base=None, config_path="conf", config_name="train")
def main(cfg: DictConfig) -> None:
    print("argv: " + json.dumps(sys.argv[1:]))
    print("config: " + json.dumps(OmegaConf.to_container(cfg, resolve=True), sort_keys=True))


if __name__ == "__main__":
    main()
