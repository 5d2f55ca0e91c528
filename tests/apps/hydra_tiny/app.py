"""A tiny Hydra app for crashmatrix's tests: passes, or raises inside the job (mode=raise).

An override of a key its config does not have (start_method=fork) is refused by Hydra before the job runs.
"""

import hydra
from omegaconf import DictConfig


@hydra.main(version_base=None, config_path="conf", config_name="config")
def main(cfg: DictConfig) -> None:
    if cfg.mode == "raise":
        raise ValueError("the job failed on purpose (mode=raise)")
    print(f"ran with mode={cfg.mode}")


if __name__ == "__main__":
    main()
