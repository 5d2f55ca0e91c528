"""The project's own profiling helpers (named before anyone ran cProfile): a step timer for the training loop."""

import time


class StepTimer:
    def __init__(self) -> None:
        self.times = []

    def __enter__(self):
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        self.times.append(time.perf_counter() - self.t0)
