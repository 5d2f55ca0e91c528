"""Memory over a cell's steps, sampled inside the cell: how it grows, told by process.

A step is a batch drawn from a DataLoader (the loader clock's tick: the probes' `timed_cycle` and the
injection's batch counter call `SAMPLER.step(iterator)` after each batch). A sample is the step, the
main process's RSS (/proc/self/statm), the summed RSS of the iterator's loader workers (their
/proc/<pid>/statm) and, where the program has initialised CUDA itself, torch's allocated and reserved
CUDA memory (never initialised here: `torch.cuda.is_initialized()` is asked first). The workers' RSS
is left out (None) once a pass seen sending its batches has sent its every one: what they hold then no
longer follows the steps, which go on with batches made ahead.

Cheap by construction, so that the speed columns do not move (bench/bench_memory_sampling.py):
- a sample is taken only where the time since the last one is at least COST_SHARE⁻¹ times what a
  sample costs (the least one took), so sampling takes about COST_SHARE of the run's time, or where
  1/DENSITY of the steps so far went by without one: a short run still gets enough samples for a slope
  (DENSITY samples over the first DENSITY steps, then some DENSITY more each time the steps grow by e);
- at most MAX_SAMPLES are kept: past it every other sample goes and samples are at least 2 (4, ...)
  steps apart, so a long run keeps samples spread over all of it in bounded memory;
- a step between samples costs a count and a comparison: where it is too soon for a sample, the next
  step to look is reckoned from the pace of the recent steps.

The main process writes its samples to `memory.json` beside the cell's report at most every FLUSH_S
and at exit, so a cell that dies (an OOM, a signal) still says how its memory grew to it.
`CRASHMATRIX_MEMORY_SAMPLING=0` turns sampling off (the benchmark's baseline).

growth(): the least-squares slope in MB (MiB) per step over the samples after the warm-up (the first
WARMUP_SHARE of the steps, at least WARMUP_STEPS), None below MIN_SAMPLES.
"""

from __future__ import annotations

import math
import os
import sys
import time
import weakref

from .atomic import write_json_atomic

MAX_SAMPLES = 2000
MIN_SAMPLES = 8
WARMUP_STEPS = 5
WARMUP_SHARE = 0.1
COST_SHARE = 0.002  # sampling may take this share of the time between samples
DENSITY = 12  # ... but it never waits longer than 1/DENSITY of the steps so far
FLUSH_S = 1.0
COLUMNS = ("step", "main_mb", "workers_mb", "gpu_allocated_mb", "gpu_reserved_mb")
_MB = 2**20
try:
    _PAGE_MB = os.sysconf("SC_PAGE_SIZE") / _MB
except (ValueError, OSError, AttributeError):  # no sysconf: the common page
    _PAGE_MB = 4096 / _MB


def rss_mb(pid: int | str = "self") -> float | None:
    """A process's resident set (MiB) from /proc/<pid>/statm; None where it is gone or unreadable."""
    try:  # os.open, not open(): a third of the cost, without the io stack's objects
        fd = os.open(f"/proc/{pid}/statm", os.O_RDONLY)
        try:
            data = os.read(fd, 256)
        finally:
            os.close(fd)
        return int(data.split()[1]) * _PAGE_MB
    except (OSError, IndexError, ValueError):
        return None


def _workers_mb(iterator) -> float | None:
    """The summed RSS of a DataLoader iterator's live workers; None without workers."""
    workers = getattr(iterator, "_workers", None) if iterator is not None else None
    if not workers:
        return None
    total = 0.0
    for worker in workers:
        pid = getattr(worker, "pid", None)
        mb = rss_mb(pid) if pid else None
        total += mb or 0.0
    return total


def _all_sent(iterator) -> bool:
    """Whether a multi-process loader's iterator has sent the workers every batch of its pass (torch's
    `_send_idx` against the pass's length; False where either is unknown, as for an iterable dataset)."""
    sent = getattr(iterator, "_send_idx", None)
    try:
        return isinstance(sent, int) and sent >= len(iterator)
    except (TypeError, AttributeError):
        return False


def _gpu_mb() -> tuple[float | None, float | None]:
    """torch's allocated and reserved CUDA memory (MiB) where the program initialised CUDA; else Nones."""
    torch = sys.modules.get("torch")
    cuda = getattr(torch, "cuda", None)
    try:
        if cuda is None or not cuda.is_initialized():
            return None, None
        return cuda.memory_allocated() / _MB, cuda.memory_reserved() / _MB
    except Exception:  # a half-imported torch, a broken driver: no GPU figures, the run goes on
        return None, None


class MemorySampler:
    """The samples of one process, taken as its steps go by."""

    def __init__(self) -> None:
        self.enabled = os.environ.get("CRASHMATRIX_MEMORY_SAMPLING", "1") != "0"
        self.steps = 0
        self.every = 1  # at least this many steps between samples (doubles with each thinning)
        self.due = 1 if self.enabled else math.inf  # the next step that may take a sample
        self.sampled_at = 0  # the step of the last sample
        self.samples: list[tuple] = []
        self.cost = 0.0  # the least a sample took (s)
        self.last = 0.0  # when it was taken (perf_counter)
        self.path: str | None = None
        self.owner = 0  # the pid that writes `path`: a forked child inherits the sampler, not the file
        self.flushed = 0.0
        self.flushed_n = 0  # the samples the last write held
        self.sending: weakref.WeakSet = weakref.WeakSet()  # iterators seen with batches still to send to workers

    def write_to(self, path: str) -> None:
        """This process is the cell's main one: keep `path` up to date, and write it at exit."""
        if not self.enabled:
            return
        import atexit

        self.path, self.owner = path, os.getpid()
        atexit.register(self.flush)

    def step(self, iterator=None) -> None:
        """One batch drawn (from `iterator`, whose `_workers` are the loader's worker processes)."""
        self.steps += 1
        if self.steps < self.due:  # the path of nearly every step: a count and a comparison
            return
        now = time.perf_counter()
        wait = self.cost / COST_SHARE - (now - self.last)
        # however short the run, a sample at least every 1/DENSITY of the steps so far: enough for a slope
        longest = max(self.every, self.steps // DENSITY)
        if len(self.samples) >= 3 and wait > 0 and self.steps - self.sampled_at < longest:
            # too soon: look again after as many steps as the rest of the wait takes at the recent pace
            pace = (now - self.last) / max(1, self.steps - self.sampled_at)
            ahead = self.steps + max(self.every, int(wait / pace) if pace > 0 else 1)
            self.due = max(self.steps + 1, min(ahead, self.sampled_at + longest))
            return
        self.samples.append((self.steps, rss_mb(), self._workers_of(iterator), *_gpu_mb()))
        if len(self.samples) > MAX_SAMPLES:
            self.samples = self.samples[1::2]
            self.every *= 2
        done = time.perf_counter()
        # the least a sample took: what reading costs; a sample that took longer waited for the CPU (a busy
        # box, a worker holding its memory map), and would starve the samples that follow for nothing
        self.cost = done - now if len(self.samples) == 1 else min(self.cost, done - now)  # the first 3 always
        self.last, self.sampled_at, self.due = done, self.steps, self.steps + self.every
        # every FLUSH_S, and whenever the samples grew by an eighth since the last write: a short run killed
        # (SIGKILL: no exit hook) between two flushes still leaves nearly all its samples, at a log-count of writes
        if self.path and (done - self.flushed >= FLUSH_S or len(self.samples) * 8 >= self.flushed_n * 9 + 8):
            self.flushed, self.flushed_n = done, len(self.samples)
            self.flush()

    def _workers_of(self, iterator) -> float | None:
        """The workers' RSS, but None once a pass seen sending its batches has sent its every one: the steps
        after go on with what the workers already made (prefetched up to prefetch_factor batches a worker,
        far ahead of a loop that a busy box slows), so their memory stays flat where the steps do not, and
        would bend a slope of memory per step that grows with each batch made. A pass that sent them all at
        once (fewer batches than the prefetch) is sampled as it goes: no other sample of it would be."""
        if not _all_sent(iterator):
            if getattr(iterator, "_workers", None):
                self.sending.add(iterator)
        elif iterator in self.sending:
            return None
        return _workers_mb(iterator)

    def figures(self) -> dict:
        """The growth columns and the samples (`memory`, for result.json); {} when sampling is off."""
        if not self.enabled:
            return {}
        if not self.samples:  # no batch drawn here (a launcher whose ranks train): nothing to keep
            return {"rss_growth_mb_per_step": None, "gpu_growth_mb_per_step": None}
        return figures(self.samples, self.every)

    def flush(self) -> None:
        if self.path is None or os.getpid() != self.owner or not self.samples:
            return
        try:
            write_json_atomic(self.path, self.figures(), durable=False)
        except (OSError, TypeError, ValueError):
            pass  # a full disk: the report says what the metrics could not


def figures(samples: list, every: int = 1) -> dict:
    """rss_growth_mb_per_step (the process tree: main + workers), gpu_growth_mb_per_step, and `memory`:
    the samples by column and each process's own slope."""
    columns = {name: [s[i] for s in samples] for i, name in enumerate(COLUMNS)}
    steps = columns["step"]
    has_workers = any(w is not None for w in columns["workers_mb"])
    # with workers, a sample without theirs (taken once every batch was sent) is no sample of the tree
    tree = [
        None if m is None or (has_workers and w is None) else m + (w or 0.0)
        for m, w in zip(columns["main_mb"], columns["workers_mb"])
    ]
    memory = {
        "every": every,
        **{name: [_rounded(v) for v in values] for name, values in columns.items()},
        "main_growth_mb_per_step": growth(steps, columns["main_mb"]),
        "workers_growth_mb_per_step": growth(steps, columns["workers_mb"]) if has_workers else None,
        "gpu_reserved_growth_mb_per_step": growth(steps, columns["gpu_reserved_mb"]),
    }
    return {
        "rss_growth_mb_per_step": growth(steps, tree),
        "gpu_growth_mb_per_step": growth(steps, columns["gpu_allocated_mb"]),
        "memory": memory,
    }


def _rounded(value):
    return round(value, 2) if isinstance(value, float) else value


def growth(steps: list, values: list) -> float | None:
    """MB per step: the least-squares slope of values over steps after the warm-up; None with too few."""
    if not steps:
        return None
    warm = max(WARMUP_STEPS, WARMUP_SHARE * max(steps))
    return _slope([(x, y) for x, y in zip(steps, values) if x > warm and y is not None], MIN_SAMPLES)


def later_growth(steps: list, values: list) -> float | None:
    """The slope over the later half of the steps after the warm-up: memory that grows step after step
    grows there too; memory that climbs and levels off (an allocator settling) does not."""
    if not steps:
        return None
    warm = max(WARMUP_STEPS, WARMUP_SHARE * max(steps))
    middle = (warm + max(steps)) / 2
    return _slope([(x, y) for x, y in zip(steps, values) if x > middle and y is not None], MIN_SAMPLES // 2)


def _slope(points: list[tuple[float, float]], fewest: int) -> float | None:
    if len(points) < fewest:
        return None
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    if spread <= 0:
        return None
    return round(sum((x - mean_x) * (y - mean_y) for x, y in points) / spread, 4)


SAMPLER = MemorySampler()
