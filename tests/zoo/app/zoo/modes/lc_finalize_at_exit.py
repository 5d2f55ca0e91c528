"""A run that finishes and exits 0, then prints two tracebacks at interpreter shutdown.

The program keeps its scratch folder alive with `weakref.finalize(self, shutil.rmtree, path)` and also registers
an atexit hook that removes the same folder to be sure; the hook runs first (registered last), so the
finalizer's rmtree finds nothing: `Exception ignored in: <finalize object ...>` with FileNotFoundError. Its metrics
flush, another atexit hook, writes to a file object already closed by the run's own `close()`: `ValueError: I/O
operation on closed file.` Python prints both and the exit status stays 0.
"""

import atexit
import os
import shutil
import tempfile
import weakref

import torch


class Scratch:
    def __init__(self):
        self.path = tempfile.mkdtemp(prefix="lc-scratch-", dir=os.environ.get("TMPDIR"))
        self._finalizer = weakref.finalize(self, shutil.rmtree, self.path)
        atexit.register(shutil.rmtree, self.path, ignore_errors=True)


class Metrics:
    def __init__(self, path: str):
        self.f = open(path, "w")
        atexit.register(self.flush)

    def log(self, step: int, loss: float) -> None:
        self.f.write(f"{step}\t{loss:.4f}\n")

    def flush(self) -> None:
        self.f.write("# end of run\n")

    def close(self) -> None:
        self.f.close()


SCRATCH = None


def main() -> None:
    global SCRATCH
    SCRATCH = Scratch()
    metrics = Metrics(os.path.join(SCRATCH.path, "metrics.tsv"))
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(32, 4, generator=torch.Generator().manual_seed(0))
    y = x.sum(1, keepdim=True)
    for step in range(5):
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        metrics.log(step, loss.item())
        print(f"step {step} loss {loss.item():.4f}", flush=True)
    metrics.close()
    print("done", flush=True)
