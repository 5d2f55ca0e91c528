"""Checkpoints: an asynchronous saver (a writer thread) and the rotation that keeps the newest ones."""

import queue
import shutil
import threading
import time
from pathlib import Path

import torch


class AsyncSaver:
    """Hands each checkpoint to a writer thread so the loop does not wait for the (slow, shared) disk."""

    def __init__(self):
        self.jobs: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._loop, name="ckpt-writer", daemon=True)
        self.thread.start()

    def save(self, state: dict, path: Path) -> None:
        self.jobs.put(({k: v.detach().clone() for k, v in state.items()}, path))

    def _loop(self) -> None:
        while (job := self.jobs.get()) is not None:
            self._write(*job)

    def _write(self, state: dict, path: Path) -> None:
        time.sleep(1.0)  # the network filesystem's latency
        torch.save(state, path)
        print(f"saved {path.parent.name}/{path.name}", flush=True)

    def close(self) -> None:
        self.jobs.put(None)
        self.thread.join()


def rotate(root: Path, keep: int) -> None:
    """Keep the newest `keep` step folders."""
    steps = sorted(p.name for p in root.iterdir() if p.name.startswith("step-"))
    for name in steps[:-keep]:
        shutil.rmtree(root / name)


def latest(root: Path) -> Path:
    step = max(int(p.name.split("-")[1]) for p in root.iterdir() if p.name.startswith("step-"))
    return root / f"step-{step}" / "model.pt"
