"""Evaluation in a separate process (spawned, so it does not inherit the trainer's threads); the report is
written into the run's output folder."""

import json
import os

from hydra.core.hydra_config import HydraConfig


def evaluate(cfg, weights: list) -> str:
    out_dir = HydraConfig.get().runtime.output_dir
    report = {"lr": cfg.optim.lr, "weight_norm": sum(w * w for w in weights) ** 0.5}
    path = os.path.join(out_dir, "eval.json")
    with open(path, "w") as f:
        json.dump(report, f)
    return path
