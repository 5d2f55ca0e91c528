"""The speed a wall clock sees, counted inside a cell: DataLoader passes from their start to their last batch.

A pass starts when the program asks a DataLoader for an iterator (`iter(loader)`): that is where
torch starts the workers, so their start-up (what spawn pays on every pass unless the workers
persist) is inside the pass. A pass ends at its last batch. Then:

- `steps_per_s`: the batches of all passes over the summed time of the passes;
- `first_batch_s`: the median time from a pass's start to its first batch (the workers' start-up,
  plus one batch);
- `first_batch_total_s`: every such wait of the run, summed over every loader's passes: workers that
  persist start once, so only the first pass pays for them and the median hides it;
- too few batches to rate (`MIN_BATCHES`): no rate at all rather than noise.

Used by the injection and the probes alike, so both count the same way.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable, Iterator

from .memory_sampler import SAMPLER

# Under 8 batches a rate mostly measures one start-up and the scheduler's jitter: at 4 batches an
# epoch, spawn and fork cells swap places from one run to the next. The wall time (duration_s) and
# first_batch_s still tell those cells apart.
MIN_BATCHES = 8


class LoaderClock:
    """The passes over one DataLoader: [start, first batch, last batch, batches] each."""

    def __init__(self) -> None:
        self.passes: list[list[float]] = []

    def start(self, at: float | None = None) -> None:
        now = time.perf_counter() if at is None else at
        self.passes.append([now, 0.0, 0.0, 0])

    def tick(self) -> None:
        if not self.passes:  # an iterator made without iter(loader): it starts at its first batch
            self.start()
        now = time.perf_counter()
        current = self.passes[-1]
        if current[3] == 0:
            current[1] = now
        current[2] = now
        current[3] += 1

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
    return out


def timed_cycle(loader: Iterable, clock: LoaderClock) -> Iterator:
    """Batches of `loader` without end, a new pass each time it runs out, each pass on `clock`, and the
    memory after each batch (memory_sampler.py: the iterator knows the loader's workers)."""
    while True:
        clock.start()
        empty = True
        iterator = iter(loader)
        for batch in iterator:
            empty = False
            clock.tick()
            SAMPLER.step(iterator)
            yield batch
        if empty:
            return
