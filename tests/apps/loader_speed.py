"""A stand-in trainer whose start method and loader workers decide both whether it crashes and how fast it is.

Its own keys (key=value): start_method (fork | spawn | forkserver), num_workers, pin_memory (taken, unused).
- Each of BATCHES batches is loaded (LOAD_S) and then trained on (STEP_S) in the main process. Without
  workers the two take turns; with them the loads run ahead in the workers, in parallel.
- A spawned worker starts in a fresh interpreter and pays SPAWN_IMPORT_S of imports first; forkserver's
  workers are forked from a warm server and pay none.
- With fork, a worker segfaults on its first item (planted: a library that is not fork-safe), and the main
  process reports it as torch.multiprocessing does: `process N terminated with signal SIGSEGV`.
Every cost is a sleep, not computation, so the timings hold on a busy 2-core machine.
"""

import ctypes
import multiprocessing
import queue
import signal
import sys
import time

BATCHES = 40
LOAD_S = 0.15
STEP_S = 0.04
SPAWN_IMPORT_S = 3.4


def load(i: int) -> int:
    time.sleep(LOAD_S)
    return i


def work(method: str, todo, done) -> None:
    if method == "spawn":
        time.sleep(SPAWN_IMPORT_S)
    while (i := todo.get()) is not None:
        if method == "fork":
            ctypes.string_at(0)  # a real read of address 0: SIGSEGV
        done.put(load(i))


def batches_from_workers(method: str, workers: int):
    ctx = multiprocessing.get_context(method)
    todo, done = ctx.Queue(), ctx.Queue()
    procs = [ctx.Process(target=work, args=(method, todo, done), daemon=True) for _ in range(workers)]
    for p in procs:
        p.start()
    for i in range(BATCHES):
        todo.put(i)
    for _ in range(BATCHES):
        while True:
            try:
                yield done.get(timeout=0.05)
                break
            except queue.Empty:
                for p in procs:
                    if p.exitcode is not None and p.exitcode < 0:
                        name = signal.Signals(-p.exitcode).name
                        raise RuntimeError(f"worker process {p.pid} terminated with signal {name}") from None
    for _ in procs:
        todo.put(None)


def main(args: dict) -> None:
    workers = int(args.get("num_workers", 0))
    method = args.get("start_method", "fork")
    source = batches_from_workers(method, workers) if workers else (load(i) for i in range(BATCHES))
    for _ in source:
        time.sleep(STEP_S)  # the training step
    print(f"trained {BATCHES} batches with {method}, {workers} workers")


if __name__ == "__main__":
    main(dict(arg.split("=", 1) for arg in sys.argv[1:]))
