"""lk_proj's entry: `python train.py --case NAME` trains a small classifier with PyTorch Lightning on the CPU."""

import argparse
import faulthandler

from lk_pkg.cases import CASES


def main() -> None:
    faulthandler.enable()  # a native crash prints the Python stack (kept on since the first segfault)
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    args = parser.parse_args()
    CASES[args.case]()


if __name__ == "__main__":
    main()
