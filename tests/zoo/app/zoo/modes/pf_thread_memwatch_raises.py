"""A memory watchdog thread of the program's: it samples the process's RSS every 0.2 s and compares it with a
limit read from the environment (a str); the thread dies on its first sample, and the main's check at the end
of training finds no sample."""

import os
import threading
import time

import torch


class MemWatch(threading.Thread):
    def __init__(self) -> None:
        super().__init__(name="memwatch", daemon=True)
        self.limit_mb = os.environ.get("PF_MEM_LIMIT_MB", "4096")
        self.samples: list[float] = []
        self.stop = threading.Event()

    def rss_mb(self) -> float:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def run(self) -> None:
        while not self.stop.is_set():
            rss = self.rss_mb()
            if rss > self.limit_mb:
                print(f"memwatch: RSS {rss:.0f} MB over the limit", flush=True)
            self.samples.append(rss)
            time.sleep(0.2)


def main() -> None:
    watch = MemWatch()
    watch.start()
    model = torch.nn.Linear(256, 256)
    for _ in range(10):
        model(torch.randn(512, 256)).sum().backward()
        time.sleep(0.05)
    watch.stop.set()
    watch.join()
    assert watch.samples, "memory watchdog recorded no sample"
    print(f"peak RSS {max(watch.samples):.0f} MB", flush=True)
