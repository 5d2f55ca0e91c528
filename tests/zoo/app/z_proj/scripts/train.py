"""The entry point: `Z_PRESET=NAME python scripts/train.py` from anywhere. It puts the project root on sys.path
itself (the project is not installed), then runs ztrain's training loop with the settings of ztrain/config.py."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from ztrain.config import load  # noqa: E402
from ztrain.loop import train  # noqa: E402


def main() -> None:
    cfg = load()
    print(f"preset {cfg.preset}: stages {cfg.stages}, batch {cfg.batch}, amp {cfg.amp}", flush=True)
    train(cfg)
    print("done", flush=True)


if __name__ == "__main__":
    main()
