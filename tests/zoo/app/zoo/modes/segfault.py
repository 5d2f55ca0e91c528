"""A header read through ctypes from a null pointer (a native reader's bug): SIGSEGV in the main process."""

import ctypes


def parse_header(address: int) -> bytes:
    return ctypes.string_at(address)


def main() -> None:
    print(parse_header(0))
