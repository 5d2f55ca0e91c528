"""The program's training script has no `if __name__ == "__main__":` guard and its loader spawns workers.

scripts/train_unguarded.py is that script; this mode runs it as `python train_unguarded.py` would.
"""

import os
import runpy

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts")


def main() -> None:
    runpy.run_path(os.path.join(SCRIPT, "train_unguarded.py"), run_name="__main__")
