"""The end of a run in two threads: a saver writes the last checkpoint, an uploader waits for it (up to 2 s) and
then reads it. The saver fails first (its folder was never created); the uploader then fails on the missing file;
the main, having joined both, refuses to report success."""

import os
import threading

import torch

SAVED = threading.Event()
RESULTS: dict = {}


def saver(state: dict) -> None:
    torch.save(state, "/tmp/sd-no-such-dir/checkpoints/last.pt")
    SAVED.set()


def uploader() -> None:
    SAVED.wait(2.0)
    size = os.path.getsize("/tmp/sd-no-such-dir/checkpoints/last.pt")
    RESULTS["uploaded"] = size


def main() -> None:
    model = torch.nn.Linear(4, 2)
    threads = [
        threading.Thread(target=saver, args=(model.state_dict(),), name="saver"),
        threading.Thread(target=uploader, name="uploader"),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if "uploaded" not in RESULTS:
        raise RuntimeError("the last checkpoint was not uploaded")
