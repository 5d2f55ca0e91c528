"""th_proj's entry: `python train.py --case NAME`."""

import argparse
import faulthandler

from th_proj_pkg.cases import CASES


def main() -> None:
    faulthandler.enable()  # a segfault in the staging or decode code should say where
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    args = parser.parse_args()
    CASES[args.case]()


if __name__ == "__main__":
    main()
