"""An evaluation sidecar polls for each epoch's checkpoint (`epoch_{n:03d}.pt`); the trainer thread names them
`epoch{n}.pt`. The trainer finishes; the sidecar waits for `epoch_001.pt` for ever."""

import os
import tempfile
import threading
import time

import torch


def trainer(out: str, epochs: int) -> None:
    for n in range(1, epochs + 1):
        time.sleep(0.2)
        torch.save({"w": torch.randn(8)}, os.path.join(out, f"epoch{n}.pt"))
    print("trainer: done", flush=True)


def wait_for(path: str) -> None:
    while not os.path.exists(path):
        time.sleep(0.5)


def main() -> None:
    out = tempfile.mkdtemp(prefix="ev_watch_")
    t = threading.Thread(target=trainer, args=(out, 3), name="trainer")
    t.start()
    for n in range(1, 4):
        path = os.path.join(out, f"epoch_{n:03d}.pt")
        print(f"eval: waiting for {os.path.basename(path)}", flush=True)
        wait_for(path)
        print("eval:", n, float(torch.load(path)["w"].sum()))
    t.join()
