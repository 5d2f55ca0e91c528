"""A Hydra training entry point laid out as users write one: config groups under conf/, `_target_` models.

python hydra_app/train.py model=resnet18
"""

import hydra
from hydra.utils import instantiate
from omegaconf import DictConfig


def build_model(cfg: DictConfig):
    return instantiate(cfg.model)


@hydra.main(version_base=None, config_path="conf", config_name="config")
def main(cfg: DictConfig) -> None:
    model = build_model(cfg)
    print(type(model).__name__, cfg.optim.lr)


if __name__ == "__main__":
    main()
