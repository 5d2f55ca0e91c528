"""Entry: `python bin/pretrain.py --case NAME --views 2` (the project is used from its source tree)."""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from contrast.loop import pretrain  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", default="ok")
    parser.add_argument("--views", type=int, default=2)
    args = parser.parse_args()
    pretrain(args.case, args.views)


if __name__ == "__main__":
    main()
