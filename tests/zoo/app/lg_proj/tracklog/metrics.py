"""Metrics: a JSON-lines file in the run's folder and, where asked, an offline W&B run."""

import json
import os
from pathlib import Path


class Tracker:
    def __init__(self, run_dir: Path, use_wandb: bool = False) -> None:
        self.path = run_dir / "metrics.jsonl"
        self.run = None
        if use_wandb:
            import wandb

            os.environ.setdefault("WANDB_MODE", "offline")
            os.environ.setdefault("WANDB_SILENT", "true")
            self.run = wandb.init(project="tracklog", dir=str(run_dir), config={"lr": 0.05})

    def log(self, step: int, values: dict) -> None:
        with open(self.path, "a") as f:
            f.write(json.dumps({"step": step, **values}) + "\n")
        if self.run is not None:
            self.run.log(values, step=step)

    def close(self) -> None:
        if self.run is not None:
            self.run.finish()
