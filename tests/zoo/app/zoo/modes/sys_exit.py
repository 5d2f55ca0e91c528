"""A program that says what is wrong and exits with its own status: sys.exit(3)."""

import sys


def main() -> None:
    print("error: no checkpoint in runs/last (pass resume=false to start afresh)", file=sys.stderr)
    sys.exit(3)
