"""eg_proj's entry: `python train.py --case NAME`."""

import argparse

from egtrain.cases import CASES


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    args = parser.parse_args()
    print(f"case {args.case}", flush=True)
    CASES[args.case]()


if __name__ == "__main__":
    main()
