"""A checkpoint manager saves in a background thread and keeps its bookkeeping under a (non-reentrant) lock;
`save()` holds the lock while it submits the save and attaches `_saved` as the future's done callback, which
takes the same lock. A future already finished runs its callback at once, in the thread that attaches it: the
small last-layer-only save every 5 steps finishes before `add_done_callback` and the main waits on itself."""

import os
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.nn.functional as F


class Checkpoints:
    def __init__(self, folder: str):
        self.folder = folder
        self.lock = threading.Lock()
        self.saved: list[str] = []
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ckpt")

    def save(self, state: dict, name: str) -> None:
        path = os.path.join(self.folder, name)
        with self.lock:
            future = self.pool.submit(torch.save, state, path)
            time.sleep(0.2)  # the manifest line is built meanwhile
            future.add_done_callback(lambda f: self._saved(path))

    def _saved(self, path: str) -> None:
        with self.lock:
            self.saved.append(path)


def main() -> None:
    torch.manual_seed(0)
    ckpts = Checkpoints(tempfile.mkdtemp(prefix="j_ckpts-"))
    model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(20):
        loss = F.cross_entropy(model(torch.randn(16, 8)), torch.randint(0, 2, (16,)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {float(loss):.4f}", flush=True)
        if (step + 1) % 5 == 0:
            ckpts.save({"head": model[2].state_dict(), "step": step}, f"head_{step}.pt")
    print(f"saved {len(ckpts.saved)}", flush=True)
