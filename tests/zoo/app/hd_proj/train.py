"""batchkit's entry: `python train.py --case NAME` runs one configuration of the training program."""

import argparse

from batchkit.train import run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    run(args.case, args.epochs)


if __name__ == "__main__":
    main()
