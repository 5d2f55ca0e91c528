"""Train the blob classifier: `python run.py [experiment=NAME] [key=value ...]` from t_proj/.

The primary config is conf/run.yaml; its groups `data` and `loss` are found on the search path it adds
(`pkg://t_lib.configs`, the package's own configs), and an experiment (conf/experiment/NAME.yaml) is applied over
everything. The training itself is t_lib.engine's.
"""

import hydra
from omegaconf import DictConfig
from t_lib.engine import train


@hydra.main(version_base="1.3", config_path="conf", config_name="run")
def main(cfg: DictConfig) -> None:
    train(cfg)


if __name__ == "__main__":
    main()
