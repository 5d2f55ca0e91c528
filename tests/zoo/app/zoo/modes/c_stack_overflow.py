"""A recursion limit raised to let a deep walk run: the C stack overflows first, and the process dies by SIGSEGV."""

import sys


def nest(n: int):
    return [nest(n - 1)] if n else []


def main() -> None:
    sys.setrecursionlimit(10**7)
    value = nest(10**6)
    print(repr(value)[:10])
