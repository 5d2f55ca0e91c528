"""A progress reader opens the named pipe the trainer is meant to write to; the trainer (a thread) is only
started after the open returns, and open() of a FIFO for reading waits for a writer: it never returns."""

import os
import tempfile
import threading


def trainer(path: str) -> None:
    with open(path, "w") as f:
        for step in range(5):
            f.write(f"step {step}\n")


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="x_fifo-"), "progress")
    os.mkfifo(path)
    with open(path) as progress:
        writer = threading.Thread(target=trainer, args=(path,), daemon=True)
        writer.start()
        for line in progress:
            print(line.strip())
