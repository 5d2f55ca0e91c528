"""The speed a wall clock sees, counted inside a cell: DataLoader passes from their start to their last batch.

A pass starts when the program asks a DataLoader for an iterator (`iter(loader)`): that is where
torch starts the workers, so their start-up (what spawn pays on every pass unless the workers
persist) is inside the pass. A pass ends at its last batch. Then:

- `steps_per_s`: the batches of all passes over the summed time of the passes;
- `first_batch_s`: the median time from a pass's start to its first batch (the workers' start-up,
  plus one batch);
- `first_batch_total_s`: every such wait of the run, summed over every loader's passes: workers that
  persist start once, so only the first pass pays for them and the median hides it;
- too few batches to rate (`MIN_BATCHES`): no rate at all rather than noise;
- `loader` (issue 50: why a slow cell is slow): the workers each pass started (new worker pids: a pass of
  workers that persist starts none), their start method, how long each took to its first batch (the
  pass's first batches in order: batch k is worker k's first), what the workers that start a fresh
  interpreter spent importing (worker_start.py), the first-batch waits of the passes that restarted them
  (what workers kept alive would have saved), the steady batches' wait for the loader against the
  program's own time between batches (input-bound or compute-bound), and the most workers a loader had.

Used by the injection and the probes alike, so both count the same way.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Iterable, Iterator

from . import worker_start
from .memory_sampler import SAMPLER

# Under 8 batches a rate mostly measures one start-up and the scheduler's jitter: at 4 batches an
# epoch, spawn and fork cells swap places from one run to the next. The wall time (duration_s) and
# first_batch_s still tell those cells apart.
MIN_BATCHES = 8
MAX_TIMELINE = 64  # passes kept for the report's start-up timeline
# how a worker was started, by the module of its Popen (a default context's Process names no method)
_METHODS = {"popen_spawn_posix": "spawn", "popen_fork": "fork", "popen_forkserver": "forkserver"}


class LoaderClock:
    """The passes over one DataLoader: [start, first batch, last batch, batches] each."""

    def __init__(self) -> None:
        self.passes: list[list[float]] = []
        self.pids: set[int] = set()  # every worker seen: a pass whose workers are all known started none
        # per pass that started workers: [pass index, method, workers started, persistent, [each one's first
        # batch, s from the pass's start]]
        self.starts: list[list] = []
        self.asked: float | None = None  # when the program asked for the next batch (ask())
        self.wait_s = 0.0  # steady batches: from the ask to the batch
        self.compute_s = 0.0  # ... and from the batch before to the ask: the program's own step
        self.steady = 0
        self.num_workers = 0  # the most workers any of its iterators had (0: batches made in this process)

    def start(self, at: float | None = None) -> None:
        now = time.perf_counter() if at is None else at
        self.passes.append([now, 0.0, 0.0, 0])
        self.asked = None

    def ask(self) -> None:
        """The program asks for a batch (the iterator's __next__ begins): the wait for it starts."""
        if self.asked is None:
            self.asked = time.perf_counter()

    def tick(self, iterator=None) -> None:
        if not self.passes:  # an iterator made without iter(loader): it starts at its first batch
            self.start()
        now = time.perf_counter()
        current = self.passes[-1]
        if current[3] == 0:
            current[1] = now
            self._workers_of(iterator)
        elif self.asked is not None:
            self.wait_s += now - self.asked
            self.compute_s += self.asked - current[2]
            self.steady += 1
        current[2] = now
        current[3] += 1
        self.asked = None
        # the pass's first batches in order, one a worker it started: batch k is worker k's first
        if self.starts and self.starts[-1][0] == len(self.passes) - 1:
            firsts = self.starts[-1][4]
            if len(firsts) < self.starts[-1][2]:
                firsts.append(round(now - current[0], 3))

    def _workers_of(self, iterator) -> None:
        """At a pass's first batch: the workers it started, if any (a pass of persistent workers starts none)."""
        state = vars(iterator) if iterator is not None and hasattr(iterator, "__dict__") else {}
        if isinstance(state.get("_num_workers"), int):
            self.num_workers = max(self.num_workers, state["_num_workers"])
        workers = state.get("_workers")
        if not workers:
            return
        pids = {p for w in workers if (p := getattr(w, "pid", None))}
        new = pids - self.pids
        self.pids |= pids
        if new:
            popen = type(getattr(workers[0], "_popen", None)).__module__.rpartition(".")[2]
            method = _METHODS.get(popen, popen)
            persistent = bool(state.get("_persistent_workers"))
            self.starts.append([len(self.passes) - 1, method, len(new), persistent, [], sorted(new)])

    @property
    def batches(self) -> int:
        return int(sum(p[3] for p in self.passes))

    def drawn(self) -> list[list[float]]:
        """The passes that yielded a batch: an iterator never drawn from has no last batch."""
        return [p for p in self.passes if p[3] > 0]


def rate(batches: int, seconds: float) -> float | None:
    """batches/s, or None where there are too few batches to rate (MIN_BATCHES)."""
    if batches < MIN_BATCHES or seconds <= 0:
        return None
    return round(batches / seconds, 3)


def speed(clocks: list[LoaderClock]) -> dict:
    """steps, steps_per_s (of the busiest loader), first_batch_s (median over every loader's passes) and
    first_batch_total_s (their sum)."""
    busiest = max(clocks, key=lambda c: c.batches, default=None)
    out: dict = {"steps": None, "steps_per_s": None, "first_batch_s": None, "first_batch_total_s": None}
    if busiest is None or busiest.batches == 0:
        return out
    drawn = busiest.drawn()
    out["steps"] = busiest.batches
    out["steps_per_s"] = rate(busiest.batches, sum(p[2] - p[0] for p in drawn))
    firsts = [p[1] - p[0] for c in clocks for p in c.drawn()]
    out["first_batch_s"] = round(statistics.median(firsts), 3)
    out["first_batch_total_s"] = round(sum(firsts), 3)
    loader = loader_figures(clocks, worker_start.read(os.environ.get("CRASHMATRIX_CELL_DIR")))
    if loader:
        out["loader"] = loader
    return out


def loader_figures(clocks: list[LoaderClock], workers: dict[int, dict]) -> dict:
    """What the loaders' workers cost (the module's docstring, `loader`); {} where no pass drew a batch.
    workers: pid -> what a fresh-interpreter worker said of its imports (worker_start.read)."""
    drawn = [c for c in clocks if c.drawn()]
    if not drawn:
        return {}
    origin = min(c.drawn()[0][0] for c in drawn)
    starts = [(c, s) for c in drawn for s in c.starts]
    each = [f for _, s in starts for f in s[4]]
    imports: dict[str, list[float]] = {}
    told = [workers[p] for _, s in starts for p in s[5] if p in workers]
    for worker in told:
        for name, seconds in (worker.get("imports") or {}).items():
            imports.setdefault(name, []).append(float(seconds))
    # the outermost imports' time; a nested one ("torch (within)") is inside its outermost one's
    import_s = [sum(float(v) for k, v in (w.get("imports") or {}).items() if "(" not in k) for w in told]
    # the waits that workers kept alive would not have had: every start of a loader's workers after its first
    restarts = [c.passes[s[0]][1] - c.passes[s[0]][0] for c in drawn for s in c.starts[1:]]
    timeline = sorted(  # every loader's passes in the order they started
        [round(p[0] - origin, 3), round(p[1] - p[0], 3), round(p[2] - p[0], 3), _started_in(c, i)]
        for c in drawn
        for i, p in enumerate(c.passes)
        if p[3] > 0
    )[:MAX_TIMELINE]
    out: dict = {
        "passes": sum(len(c.drawn()) for c in drawn),
        "workers_started": sum(s[2] for _, s in starts),
        "starting_passes": len(starts),
        "starting_loaders": len({id(c) for c, _ in starts}),
        "methods": sorted({s[1] for _, s in starts}),
        "persistent": any(s[3] for _, s in starts),
        "worker_first_batch_s": round(statistics.median(each), 3) if each else None,
        "restart_s": round(sum(restarts), 3),
        "worker_import_s": round(statistics.median(import_s), 3) if import_s else None,
        "worker_imports": {k: round(statistics.median(v), 3) for k, v in imports.items()},
        "workers_told": len(told),
        "num_workers": max(c.num_workers for c in drawn),
        "steady_batches": sum(c.steady for c in drawn),
        "wait_s": round(sum(c.wait_s for c in drawn), 3),
        "compute_s": round(sum(c.compute_s for c in drawn), 3),
        "timeline": timeline,
    }
    return out


def _started_in(clock: LoaderClock, index: int) -> int:
    return next((s[2] for s in clock.starts if s[0] == index), 0)


def timed_cycle(loader: Iterable, clock: LoaderClock) -> Iterator:
    """Batches of `loader` without end, a new pass each time it runs out, each pass on `clock`, and the
    memory after each batch (memory_sampler.py: the iterator knows the loader's workers)."""
    while True:
        clock.start()
        empty = True
        iterator = iter(loader)
        for batch in iterator:
            empty = False
            clock.tick(iterator)
            SAMPLER.step(iterator)
            yield batch
        if empty:
            return
