"""Train the recogniser: `python train.py data=NAME` (a Hydra app; configs/ holds the groups data/ and model/)."""

import hydra
from speechkit.train import fit


@hydra.main(version_base=None, config_path="configs", config_name="config")
def main(cfg) -> None:
    fit(cfg)


if __name__ == "__main__":
    main()
