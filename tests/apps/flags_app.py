"""A training script whose booleans are argparse flags, as most scripts' are: `--amp` (store_true), `--no-shuffle`
(store_false into `shuffle`), `--compile` / `--no-compile` (BooleanOptionalAction). It prints what it parsed."""

import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--lr", type=float, default=0.1)
parser.add_argument("--amp", action="store_true", help="mixed precision")
parser.add_argument("--no-shuffle", dest="shuffle", action="store_false")
parser.add_argument("--compile", action=argparse.BooleanOptionalAction, default=True)
args = parser.parse_args()  # `--amp=true` is argparse's "ignored explicit argument", exit status 2
print(f"parsed lr={args.lr} amp={args.amp} shuffle={args.shuffle} compile={args.compile}")
