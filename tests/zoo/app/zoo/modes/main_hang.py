"""The main process waits for a file another job was to write (a rank-0-only download): it never comes."""

import os
import time


def wait_for_dataset(path: str) -> None:
    while not os.path.exists(path):
        time.sleep(0.2)


def main() -> None:
    wait_for_dataset("data/.download-done")
