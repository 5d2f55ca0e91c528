"""A Hydra app hands its composed config to a run-logger thread that writes run_meta.json before training starts;
json.dumps refuses the DictConfig and the thread dies. The main thread waits 2 s for the logger's acknowledgement
and raises its own TimeoutError: the second error is the one Hydra reports as the job's.
"""

import json
import os
import sys
import threading
from dataclasses import dataclass, field
from typing import Any

import hydra
from hydra.core.config_store import ConfigStore
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig


@dataclass
class AppConf:
    lr: float = 0.01
    epochs: int = 2
    tags: list = field(default_factory=lambda: ["baseline", "cpu"])
    hydra: Any = field(default_factory=lambda: {"run": {"dir": "${oc.env:TMPDIR,/tmp}/hr_tj/${now:%H-%M-%S-%f}"}})


def publish(cfg: DictConfig, out_dir: str, ready: threading.Event) -> None:
    meta = json.dumps({"config": cfg, "out_dir": out_dir}, indent=2)
    with open(os.path.join(out_dir, "run_meta.json"), "w") as f:
        f.write(meta)
    ready.set()


def task(cfg: DictConfig) -> None:
    ready = threading.Event()
    out_dir = HydraConfig.get().runtime.output_dir
    threading.Thread(target=publish, args=(cfg, out_dir, ready), name="run-logger", daemon=True).start()
    if not ready.wait(timeout=2.0):
        raise TimeoutError("run logger did not acknowledge the run config within 2.0 s")
    print("training", flush=True)


def main() -> None:
    ConfigStore.instance().store(name="hr_tj_app", node=AppConf)
    sys.argv = [sys.argv[0]]
    hydra.main(config_path=None, config_name="hr_tj_app", version_base="1.3")(task)()
