"""The main waits for a checkpoint the saver thread writes, polling for `last.ckpt` every 0.2 s; the saver
names its file by a versioned template (`last-v{version}.ckpt`), so the poll never sees the name it waits for."""

import os
import tempfile
import threading
import time

CKPT_TEMPLATE = "last-v{version}.ckpt"


def save(folder: str, version: int) -> None:
    with open(os.path.join(folder, CKPT_TEMPLATE.format(version=version)), "wb") as f:
        f.write(b"\0" * 128)


def wait_for(path: str) -> None:
    while not os.path.exists(path):
        time.sleep(0.2)


def main() -> None:
    folder = tempfile.mkdtemp(prefix="x_ckpt-")
    threading.Thread(target=save, args=(folder, 1), daemon=True).start()
    wait_for(os.path.join(folder, "last.ckpt"))
    print("checkpoint ready")
