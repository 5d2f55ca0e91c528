"""A consistency check that gives up with os.abort() (as C code's abort() would): SIGABRT."""

import os


def check_shards(found: int, expected: int) -> None:
    if found != expected:
        os.abort()


def main() -> None:
    check_shards(3, 4)
