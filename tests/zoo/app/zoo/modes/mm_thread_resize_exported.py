"""A replay log in one memory-mapped file: a writer thread appends episodes and grows the mapping with
mm.resize(); the learner in the main thread samples through a numpy view of the same mapping. The view holds an
exported buffer, so the writer's first resize raises in its thread; the main notices the writer stopped later."""

import mmap
import os
import tempfile
import threading
import time

import numpy as np
import torch

ROW = 64 * 4


class ReplayLog:
    def __init__(self, path: str, rows: int):
        self.file = open(path, "w+b")
        self.file.truncate(rows * ROW)
        self.mm = mmap.mmap(self.file.fileno(), rows * ROW)
        self.rows = rows
        self.grown = threading.Event()

    def view(self) -> np.ndarray:
        return np.frombuffer(self.mm, dtype=np.float32).reshape(self.rows, 64)

    def grow(self, extra: int) -> None:
        time.sleep(0.3)  # an episode finished
        self.file.truncate((self.rows + extra) * ROW)
        self.mm.resize((self.rows + extra) * ROW)
        self.rows += extra
        self.grown.set()


def main() -> None:
    log = ReplayLog(os.path.join(tempfile.mkdtemp(), "replay.f32"), 128)
    table = log.view()
    writer = threading.Thread(target=log.grow, args=(64,), name="replay-writer")
    writer.start()
    policy = torch.nn.Linear(64, 4)
    for step in range(3):
        batch = torch.from_numpy(np.array(table[np.random.randint(0, len(table), 16)]))
        print(f"step {step} q {policy(batch).mean().item():.3f}", flush=True)
    if not log.grown.wait(timeout=2.0):
        raise RuntimeError("the replay writer stopped: the log did not grow in 2 s")
