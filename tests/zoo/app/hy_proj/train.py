"""A Hydra training entry point: `python train.py +case=NAME` (or group overrides such as model=wide)."""

import hydra
from hyapp import schema
from hyapp.loop import fit
from omegaconf import DictConfig

schema.register()


@hydra.main(config_path="conf", config_name="config", version_base="1.3")
def main(cfg: DictConfig) -> float:
    return fit(cfg)


if __name__ == "__main__":
    main()
