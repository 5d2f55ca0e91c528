"""python -m genlab --case NAME --steps N: train one of genlab's models as the named case sets it up."""

import argparse

from genlab.train import CASES


def main() -> None:
    parser = argparse.ArgumentParser(prog="genlab")
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    CASES[args.case](args.steps, args.seed)


if __name__ == "__main__":
    main()
