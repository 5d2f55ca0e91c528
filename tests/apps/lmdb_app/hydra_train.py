"""train.py as a Hydra app (conf/config.yaml): `python hydra_train.py data=PATH`, swept with
`-m data=A,B hydra/launcher=crashmatrix`. A cut data.mdb dies by SIGBUS inside lmdb's C extension."""

import os
import sys

import hydra
from omegaconf import DictConfig

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import train  # noqa: E402


@hydra.main(version_base=None, config_path="conf", config_name="config")
def main(cfg: DictConfig) -> None:
    train.main({"data": cfg.data})


if __name__ == "__main__":
    main()
