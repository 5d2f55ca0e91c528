"""`python -m seqlab.cli train --case NAME --cell lstm` (argparse subcommands)."""

import argparse

from seqlab.train import CASES, fit


def main() -> None:
    parser = argparse.ArgumentParser(prog="seqlab")
    sub = parser.add_subparsers(dest="command", required=True)
    train = sub.add_parser("train", help="train one named case")
    train.add_argument("--case", required=True, choices=sorted(CASES))
    train.add_argument("--cell", default="lstm", choices=["lstm", "gru"])
    train.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    if args.command == "train":
        fit(args.case, args.cell, args.epochs)


if __name__ == "__main__":
    main()
