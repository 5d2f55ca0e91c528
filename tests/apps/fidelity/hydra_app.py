"""A Hydra app: Hydra configures logging (a log file in the run directory), the job logs, warns and
prints where it runs; its run directory (given as hydra.run.dir) is compared file by file."""

import logging
import os
import warnings

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig

log = logging.getLogger(__name__)


@hydra.main(version_base=None, config_path="hydra_conf", config_name="config")
def main(cfg: DictConfig) -> None:
    log.info("job %s at level %d", cfg.name, cfg.level)
    warnings.warn("a warning inside a Hydra job", UserWarning)
    print("cwd", os.getcwd(), "output", os.path.relpath(HydraConfig.get().runtime.output_dir))
    print("handlers", [type(h).__name__ for h in logging.getLogger().handlers])


if __name__ == "__main__":
    main()
