"""The trainer means to give each of its 2 augmentation threads one OpenMP thread, and sets OMP_NUM_THREADS=1 after
`import torch`: too late, the OpenMP runtime read the variable when torch loaded, so every thread that runs a
parallel op gets a team of its own. The program's oversubscription guard thread counts the process's threads,
finds more than its budget and aborts (SIGABRT) for a core dump.
"""

import faulthandler
import os
import threading
import time

import torch

os.environ["OMP_NUM_THREADS"] = "1"  # one OpenMP thread per augmentation thread
AUGMENTERS = 2


def threads_now() -> int:
    with open("/proc/self/status") as f:
        return int(next(line for line in f if line.startswith("Threads:")).split()[1])


def guard(budget: int, stop: threading.Event) -> None:
    while not stop.is_set():
        n = threads_now()
        if n > budget:
            print(f"oversubscribed: {n} threads, budget {budget}; aborting for a core dump", flush=True)
            os.abort()
        time.sleep(0.05)


def augment(k: int) -> None:
    g = torch.Generator().manual_seed(k)
    for _ in range(40):
        x = torch.rand(256, 512, generator=g)
        torch.tanh(x).exp_().sum()


def main() -> None:
    faulthandler.enable()
    budget = 2 + AUGMENTERS * int(os.environ["OMP_NUM_THREADS"])  # main, guard, and each augmenter's OpenMP threads
    stop = threading.Event()
    watcher = threading.Thread(target=guard, args=(budget, stop), name="guard", daemon=True)
    watcher.start()
    workers = [threading.Thread(target=augment, args=(k,), name=f"augment{k}") for k in range(AUGMENTERS)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    stop.set()
    print(f"augmented with {threads_now()} threads", flush=True)
