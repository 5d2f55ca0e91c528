"""trackkit's entry: `python train.py --case NAME` (crashmatrix passes it as `--case=NAME`)."""

import argparse

from trackkit.train import CASES, run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=0.1)
    run(parser.parse_args())


if __name__ == "__main__":
    main()
