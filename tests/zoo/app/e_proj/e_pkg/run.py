"""Entry point: `python -m e_pkg.run experiment=NAME [key=value ...]`, run from the project's folder (the launcher
changes to it)."""

import faulthandler
import os
import sys

from e_pkg import config
from e_pkg.data import make_loader
from e_pkg.models import build_model
from e_pkg.train import STAGES


def main(argv: list) -> None:
    faulthandler.enable()
    cfg = config.load(argv)
    run_dir = os.path.join(os.environ.get("E_RUNS_DIR", "runs"), f"{cfg['experiment']}-{os.getpid()}")
    os.makedirs(run_dir, exist_ok=True)
    print(f"run {cfg['experiment']} in {run_dir}", flush=True)
    data = cfg["data"]
    model = build_model(cfg["model"], data["num_features"], data["num_classes"])
    loader = make_loader(cfg, run_dir)
    for stage in cfg["stages"]:
        STAGES[stage](cfg, model, loader, run_dir)
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
