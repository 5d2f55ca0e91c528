"""What the trainer builds around its loop: a prefetch thread, a stall watchdog, a preemption handler, the shard
preparation tool and a feature extraction child."""

import logging
import os
import queue
import signal
import subprocess
import sys
import threading
import time

import torch
import torch.multiprocessing as tmp

log = logging.getLogger("exkit")


def die_on_thread_error(args) -> None:
    """A dead helper thread must not leave training running on stale data: log it and stop the process."""
    log.error("thread %s died", args.thread.name, exc_info=(args.exc_type, args.exc_value, args.exc_traceback))
    logging.shutdown()
    os._exit(1)


def prefetched(loader, depth: int = 2):
    q: queue.Queue = queue.Queue(maxsize=depth)

    def fill() -> None:
        for batch in loader:
            q.put((batch["x"], batch["y"]))
        q.put(None)

    threading.Thread(target=fill, name="prefetch", daemon=True).start()
    while (item := q.get()) is not None:
        yield item


class Watchdog(threading.Thread):
    """Stops a run whose steps stall (a hung filesystem, a dead peer) instead of burning the allocation."""

    def __init__(self, limit_s: float) -> None:
        super().__init__(name="watchdog", daemon=True)
        self.limit_s = limit_s
        self.last = time.monotonic()

    def beat(self) -> None:
        self.last = time.monotonic()

    def run(self) -> None:
        while True:
            time.sleep(0.2)
            idle = time.monotonic() - self.last
            if idle > self.limit_s:
                print(f"watchdog: no step for {idle:.1f} s (limit {self.limit_s} s), exiting", file=sys.stderr)
                sys.stderr.flush()
                os._exit(1)


STOP = threading.Event()


def on_preempt(signum, frame) -> None:
    log.warning("signal %d: checkpointing after this step, then exiting for requeue", signum)
    STOP.set()


def install_preemption(after_s: float) -> None:
    """SIGTERM as Slurm sends it before a preemption; here a child stands in for the scheduler and signals every
    process of the job step (the trainer and its children)."""
    signal.signal(signal.SIGTERM, on_preempt)
    me = os.getpid()
    script = (
        f"sleep {after_s}; kids=$(cat /proc/{me}/task/*/children); "
        f'kill -TERM {me} $(for k in $kids; do [ "$k" != "$$" ] && echo $k; done)'
    )
    subprocess.Popen(["bash", "-c", script])


def prepare_shards(run_dir: str) -> None:
    shard_dir = os.path.join(run_dir, "shards")
    subprocess.run(["exkit-prep", shard_dir], env={"EXKIT_SHARDS": "4"}, check=True)


def _extract(q, n: int) -> None:
    torch.manual_seed(1)
    for _ in range(n):
        q.put(torch.randn(4, 8))


def extract_features(n: int = 4) -> list:
    """Features computed in a child process and sent back through a torch.multiprocessing queue."""
    q = tmp.Queue()
    child = tmp.Process(target=_extract, args=(q, n))
    child.start()
    child.join()
    log.info("feature child done (exit %s)", child.exitcode)
    return [q.get(timeout=10) for _ in range(n)]
