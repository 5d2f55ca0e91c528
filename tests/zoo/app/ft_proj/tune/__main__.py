"""`python -m tune --recipe NAME`: run one fine-tuning recipe (tune/train.py's RECIPES)."""

import argparse

from tune.train import RECIPES


def main() -> None:
    parser = argparse.ArgumentParser(prog="tune")
    parser.add_argument("--recipe", required=True, choices=sorted(RECIPES))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--steps", type=int, default=3)
    args = parser.parse_args()
    print(f"recipe {args.recipe}", flush=True)
    RECIPES[args.recipe](args)


if __name__ == "__main__":
    main()
