"""The failure zoo's entry point: `python main.py mode=NAME` runs zoo/modes/NAME.py's main().

key=value arguments, as crashmatrix passes a cell's parameters. Each mode is a small real program
that fails one way PyTorch users report; tests/zoo/truth.yaml holds what each does when run alone.
"""

import importlib
import sys

from zoo import imports_settled


def main() -> None:
    args = dict(a.split("=", 1) for a in sys.argv[1:])
    mode = importlib.import_module(f"zoo.modes.{args['mode']}")
    imports_settled()
    mode.main()


if __name__ == "__main__":
    main()
