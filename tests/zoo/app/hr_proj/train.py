"""hr_proj's entry: `python train.py --case NAME [HYDRA OVERRIDES...]`.

The project's own option `--case` names a recorded experiment (hr_pkg/cases.py): the Hydra overrides (and
`--multirun`) it was run with. Anything else on the command line is passed to Hydra as typed.
"""

import argparse
import faulthandler
import sys

import hydra
from hr_pkg import resolvers, schema
from hr_pkg.cases import CASES
from omegaconf import DictConfig

faulthandler.enable()
resolvers.register()
schema.register()


@hydra.main(config_path="conf", config_name="config", version_base="1.3")
def main(cfg: DictConfig) -> None:
    from hr_pkg.loop import run

    run(cfg)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    args, rest = parser.parse_known_args()
    sys.argv = [sys.argv[0], *CASES[args.case], *rest]
    main()
