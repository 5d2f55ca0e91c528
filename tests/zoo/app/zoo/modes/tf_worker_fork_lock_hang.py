"""A logging tensor guards its log with a module lock; a flusher thread in the main process holds it while it
writes the log out. The DataLoader forks its worker while the flusher holds the lock, so the worker's copy of
the lock is held by a thread that does not exist in it: the worker's first logged op waits for ever, and the
main waits for the worker's batch (no timeout).
"""

import threading
import time

import torch
from torch.utils.data import DataLoader, Dataset

LOG_LOCK = threading.Lock()
LOG: list[str] = []


class LoggingTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        with LOG_LOCK:
            LOG.append(getattr(func, "__name__", str(func)))
        return super().__torch_function__(func, types, args, kwargs or {})


def flusher(started: threading.Event) -> None:
    with LOG_LOCK:
        started.set()
        time.sleep(5)  # writing the log out to slow storage
        LOG.clear()


class Windows(Dataset):
    def __len__(self) -> int:
        return 8

    def __getitem__(self, i: int) -> torch.Tensor:
        x = torch.arange(4.0).as_subclass(LoggingTensor)
        return (x * i).as_subclass(torch.Tensor)


def main() -> None:
    started = threading.Event()
    threading.Thread(target=flusher, args=(started,), daemon=True, name="flusher").start()
    started.wait()
    loader = DataLoader(Windows(), batch_size=4, num_workers=1, multiprocessing_context="fork")
    for step, batch in enumerate(loader):
        print(f"step {step}: {tuple(batch.shape)}", flush=True)
