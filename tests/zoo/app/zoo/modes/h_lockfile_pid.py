"""A run directory's lock file left by a crashed earlier run: the program refuses to start and names the pid in the
lock, a different number each run."""

import os
import random
import tempfile


def take_lock(folder: str) -> None:
    path = os.path.join(folder, "train.lock")
    if os.path.exists(path):
        with open(path) as f:
            raise RuntimeError(f"run directory is locked by pid {f.read().strip()}; remove {path} if it died")
    with open(path, "w") as f:
        f.write(str(os.getpid()))


def main() -> None:
    folder = tempfile.mkdtemp()
    with open(os.path.join(folder, "train.lock"), "w") as f:
        f.write(str(random.randint(1000, 4_000_000)))  # the crashed run's pid
    take_lock(folder)
