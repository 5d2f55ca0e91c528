"""The export step runs in a spawned child under the program's memory-tracking TorchDispatchMode, whose hard
limit is meant in MB but compared with bytes; over it, the tracker calls os.abort() (to leave a core for
debugging). The parent sees the child's exit code and raises its own error.
"""

import faulthandler
import multiprocessing as mp
import os

import torch
from torch.utils._python_dispatch import TorchDispatchMode

HARD_LIMIT = 512  # meant as MB


class MemoryTracker(TorchDispatchMode):
    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit, self.allocated = limit, 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if isinstance(out, torch.Tensor):
            self.allocated += out.untyped_storage().nbytes()
            if self.allocated > self.limit:
                print(f"tracker: {self.allocated} over hard limit {self.limit} in {func}", flush=True)
                os.abort()
        return out


def export(path: str) -> None:
    faulthandler.enable()
    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 8))
    with MemoryTracker(HARD_LIMIT):
        out = model(torch.randn(16, 32))
    torch.save(out, path)


def main() -> None:
    path = os.path.join("/tmp", f"tf_export_{os.getpid()}.pt")
    ctx = mp.get_context("spawn")
    child = ctx.Process(target=export, args=(path,), name="export")
    child.start()
    child.join()
    if child.exitcode != 0:
        raise RuntimeError(f"export child failed with exit code {child.exitcode}")
    print("exported", path)
