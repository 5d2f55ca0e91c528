"""A system monitor (a non-daemon thread, as loggers start them) logs the process's memory every second until
the trainer sets `stop` at the end of `fit`. The trainer holds itself to 768 MB past its mapping (RLIMIT_AS); its
feature cache doubles every epoch and the third epoch's `torch.cat` (512 MB) is refused (DefaultCPUAllocator). The traceback is
printed, but `stop` is never set: the interpreter waits at exit for the monitor thread, for ever."""

import resource
import threading

import torch


def mapped_bytes() -> int:
    with open("/proc/self/status") as f:
        return int(next(x for x in f if x.startswith("VmSize:")).split()[1]) * 1024


def rss_mb() -> int:
    with open("/proc/self/status") as f:
        return int(next(x for x in f if x.startswith("VmRSS:")).split()[1]) // 1024


def monitor(stop: threading.Event) -> None:
    while not stop.is_set():
        print(f"[monitor] rss {rss_mb()} MB", flush=True)
        stop.wait(1.0)


def fit(stop: threading.Event) -> None:
    cache = torch.randn(1 << 20, 16)
    for epoch in range(8):
        cache = torch.cat([cache, cache * 0.5])
        print(f"epoch {epoch}: feature cache {cache.numel() * 4 >> 20} MB", flush=True)
    stop.set()


def main() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (mapped_bytes() + (768 << 20), hard))
    stop = threading.Event()
    threading.Thread(target=monitor, args=(stop,), name="sys-monitor").start()
    fit(stop)
