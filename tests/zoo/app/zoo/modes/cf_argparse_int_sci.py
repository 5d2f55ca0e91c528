"""A launcher script's argument line written with scientific notation: `--max-steps 1e3` to an argparse option
declared `type=int`. argparse's int() refuses '1e3'; argparse prints the usage and the error and exits with 2,
no traceback."""

import argparse

LAUNCH = ["--lr", "3e-4", "--max-steps", "1e3", "--batch-size", "32"]


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="pretrain.py")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--max-steps", type=int, default=1000)
    parser.add_argument("--batch-size", type=int, default=16)
    return parser.parse_args(argv)


def main() -> None:
    print(f"launching with {' '.join(LAUNCH)}", flush=True)
    args = parse(LAUNCH)
    print(f"training {args.max_steps} steps", flush=True)
