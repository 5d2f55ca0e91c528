"""The entry point, run as a script from any folder: `python .../src/bfit/cli.py case=NAME [key=value ...]`.

Run as a script, Python puts this file's own folder (src/bfit/) first on sys.path, where data.py or train.py could
shadow another top-level module; it is replaced by src/, so the package imports as `bfit`."""

import os
import sys

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[0] = SRC

from bfit.config import parse  # noqa: E402
from bfit.logsetup import setup_logging  # noqa: E402
from bfit.train import fit  # noqa: E402


def main() -> None:
    cfg = parse(sys.argv[1:])
    log = setup_logging(cfg)
    log.info("case %s: epochs %d, batch %d, workers %d", cfg.case, cfg.epochs, cfg.batch, cfg.workers)
    fit(cfg)
    log.info("done")


if __name__ == "__main__":
    main()
