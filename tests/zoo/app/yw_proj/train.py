"""yw_proj's entry: `python train.py --case NAME`."""

import argparse
import faulthandler

from ywmix.cases import CASES


def main() -> None:
    faulthandler.enable()
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    args = parser.parse_args()
    CASES[args.case]()


if __name__ == "__main__":
    main()
