"""A library sets the start method at import and the program sets it again: "context has already been set"."""

import multiprocessing


def setup_library() -> None:
    multiprocessing.set_start_method("spawn")


def main() -> None:
    setup_library()
    multiprocessing.set_start_method("forkserver")
