"""hookkit's entry: `python train.py --case NAME` runs one configuration of the probing program."""

import argparse

from hookkit.train import run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True)
    parser.add_argument("--steps", type=int, default=6)
    args = parser.parse_args()
    run(args.case, args.steps)


if __name__ == "__main__":
    main()
