"""The run's text log: a console handler and a file handler in the run's folder."""

import logging
import shutil
import sys
from pathlib import Path

FORMATS = {
    "plain": "%(asctime)s %(levelname)s %(message)s",
    # the step-stamped format of the per-step lines (`extra={"step": ...}`)
    "stepped": "%(asctime)s step %(step)05d %(levelname)s %(message)s",
}


def fresh_run_dir(root: Path, name: str) -> Path:
    """Clear what an earlier run of the same name left (its log, metrics and samples)."""
    run_dir = root / name
    if run_dir.exists():
        shutil.rmtree(run_dir)
    return run_dir


def setup_logging(run_dir: Path, fmt: str = "plain") -> logging.Logger:
    log = logging.getLogger("tracklog")
    log.setLevel(logging.INFO)
    log.propagate = False
    formatter = logging.Formatter(FORMATS[fmt])
    console = logging.StreamHandler(sys.stdout)
    console.setFormatter(formatter)
    log.addHandler(console)
    to_file = logging.FileHandler(run_dir / "train.log")
    to_file.setFormatter(formatter)
    log.addHandler(to_file)
    return log
