"""A Hydra app runs its evaluation in a child process that puts its predictions on a multiprocessing Queue; the
parent joins the child before taking them. The predictions (1 MB) do not fit the pipe, so the child waits at exit
for its queue's feeder thread to flush, and the parent waits in join() for the child: neither ends.
"""

import multiprocessing as mp
import sys
from dataclasses import dataclass, field
from typing import Any

import hydra
import numpy as np
from hydra.core.config_store import ConfigStore
from omegaconf import DictConfig, OmegaConf


@dataclass
class EvalConf:
    samples: int = 4096
    classes: int = 64


@dataclass
class AppConf:
    eval: EvalConf = field(default_factory=EvalConf)
    hydra: Any = field(default_factory=lambda: {"run": {"dir": "${oc.env:TMPDIR,/tmp}/hr_ev/${now:%H-%M-%S-%f}"}})


def predict(cfg: dict, results: Any) -> None:
    e = cfg["eval"]
    preds = np.random.default_rng(0).standard_normal((e["samples"], e["classes"])).astype(np.float32)
    results.put({"preds": preds, "n": e["samples"]})
    print(f"eval child: {e['samples']} predictions queued", flush=True)


def evaluate(cfg: DictConfig) -> float:
    ctx = mp.get_context("spawn")
    results = ctx.Queue()
    child = ctx.Process(target=predict, args=(OmegaConf.to_container(cfg), results), name="evaluator")
    child.start()
    child.join()
    out = results.get()
    return float(out["preds"].argmax(1).mean())


def task(cfg: DictConfig) -> None:
    print(f"eval score {evaluate(cfg):.3f}", flush=True)


def main() -> None:
    ConfigStore.instance().store(name="hr_ev_app", node=AppConf)
    sys.argv = [sys.argv[0]]
    hydra.main(config_path=None, config_name="hr_ev_app", version_base="1.3")(task)()
