"""lt_proj's entry: `python train.py --case NAME --max-epochs 1`."""

import argparse

from litkit.cli import CASES, run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    parser.add_argument("--max-epochs", type=int, default=1)
    args = parser.parse_args()
    run(args.case, args.max_epochs)


if __name__ == "__main__":
    main()
