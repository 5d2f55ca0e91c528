"""Where the model and batches go: the device and dtype are read from the run's config."""

import queue
import threading

import torch

CONFIGS = {
    "gpu_string": {"device": "gpu", "dtype": "float32"},
    "meta_forward": {"device": "cpu", "dtype": "float32", "lazy_init": True},
    "half_whiten": {"device": "cpu", "dtype": "float16"},
    "prefetch_pin": {"device": "cpu", "dtype": "float32", "pin": True},
}


def resolve(cfg: dict) -> tuple[torch.device, torch.dtype]:
    device = torch.device(cfg["device"])
    dtype = getattr(torch, cfg["dtype"])
    return device, dtype


class Prefetcher:
    """Copies the next batch in a background thread, pinned for a fast non_blocking copy."""

    def __init__(self, batches, device: torch.device, pin: bool):
        self.q: queue.Queue = queue.Queue(maxsize=2)
        self.device, self.pin = device, pin
        self.t = threading.Thread(target=self._fill, args=(batches,), name="prefetch")
        self.t.start()

    def _fill(self, batches) -> None:
        for x, y in batches:
            if self.pin:
                x, y = x.pin_memory(), y.pin_memory()
            self.q.put((x.to(self.device, non_blocking=True), y.to(self.device, non_blocking=True)))
        self.q.put(None)

    def __iter__(self):
        while (item := self.q.get(timeout=5)) is not None:
            yield item
