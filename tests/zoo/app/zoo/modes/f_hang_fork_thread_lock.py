"""A metrics writer thread flushes to disk under its lock every few milliseconds; the main forks a child with
os.fork() to export the model while training goes on. The fork copies the lock as held by the writer thread,
which does not exist in the child: the child's first `record()` waits for it for ever, and the main waits for
the child in os.waitpid()."""

import os
import tempfile
import threading
import time

import torch


class Metrics:
    def __init__(self, path: str):
        self.path, self.lock, self.rows = path, threading.Lock(), []
        threading.Thread(target=self._flush_loop, daemon=True, name="metrics").start()

    def record(self, **row) -> None:
        with self.lock:
            self.rows.append(row)

    def _flush_loop(self) -> None:
        while True:
            with self.lock:
                with open(self.path, "a") as f:
                    f.writelines(f"{r}\n" for r in self.rows)
                self.rows.clear()
                time.sleep(0.2)  # a slow shared filesystem
            time.sleep(0.001)


def export(model: torch.nn.Module, metrics: Metrics) -> None:
    torch.save(model.state_dict(), os.path.join(tempfile.gettempdir(), f"export-{os.getpid()}.pt"))
    metrics.record(event="exported")


def main() -> None:
    metrics = Metrics(os.path.join(tempfile.mkdtemp(), "metrics.log"))
    model = torch.nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(3):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        metrics.record(step=step, loss=loss.item())
    for _ in range(20):  # a few more steps, logged at the end of the epoch
        loss = model(torch.randn(4, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        time.sleep(0.005)
    print("exporting in a forked child", flush=True)
    pid = os.fork()
    if pid == 0:
        export(model, metrics)
        os._exit(0)
    os.waitpid(pid, 0)
    print("exported", flush=True)
