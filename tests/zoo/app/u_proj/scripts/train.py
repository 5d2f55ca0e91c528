"""The entry script of a Hydra + Lightning project laid out as lightning-hydra-template's are (the tenth held-out
set's, u_*): the root marked by `.project-root`, the code in `src/u_core/`, every part built from `_target_`.

python u_proj/scripts/train.py experiment=NAME   (configs/experiment/NAME.yaml)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import hydra  # noqa: E402
from omegaconf import DictConfig  # noqa: E402
from u_core.build import build_callbacks, fit  # noqa: E402


@hydra.main(version_base="1.3", config_path="../configs", config_name="train")
def main(cfg: DictConfig) -> None:
    callbacks = build_callbacks(cfg.get("callbacks"))
    fit(cfg, callbacks)


if __name__ == "__main__":
    main()
