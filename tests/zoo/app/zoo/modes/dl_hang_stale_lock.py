"""The program's download lock: a `.lock` file beside the cached archive, waited on while it exists. A killed
earlier run left it behind (its pid long gone); nothing will ever remove it."""

import os
import tempfile
import time

import torch


def wait_for_lock(lock: str) -> None:
    while os.path.exists(lock):
        time.sleep(0.5)


def main() -> None:
    cache = tempfile.mkdtemp(prefix="dl_cache_")
    lock = os.path.join(cache, "digits.zip.lock")
    with open(lock, "w") as f:
        f.write("pid 4194301\n")
    print(f"another process is downloading into {cache}, waiting for {lock}", flush=True)
    wait_for_lock(lock)
    print(torch.load(os.path.join(cache, "digits.zip")))
