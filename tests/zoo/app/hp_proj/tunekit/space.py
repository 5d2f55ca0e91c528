"""Search spaces: a study's hyperparameters and how each is drawn."""

from __future__ import annotations

import torch


class Uniform:
    def __init__(self, low: float, high: float) -> None:
        self.low, self.high = low, high

    def sample(self, g: torch.Generator) -> float:
        return float(torch.empty(()).uniform_(self.low, self.high, generator=g))


class LogUniform(Uniform):
    def sample(self, g: torch.Generator) -> float:
        low, high = torch.tensor([self.low, self.high]).log().tolist()
        return float(torch.empty(()).uniform_(low, high, generator=g).exp())


class Choice:
    def __init__(self, *values) -> None:
        self.values = values

    def sample(self, g: torch.Generator):
        return self.values[int(torch.randint(len(self.values), (), generator=g))]


BASE = {
    "lr": LogUniform(1e-3, 1e-1),
    "hidden": Choice(16, 32),
    "batch_size": Choice(16, 32),
    "steps": Choice(20),
}

STUDIES = {
    # a log-uniform range whose lower bound is 0 (it was `Uniform(0, 0.1)` before someone made it log)
    "hp_logu_zero_bound": {**BASE, "weight_decay": LogUniform(0.0, 1e-2)},
    # the batch-size grid gained a 0 from a config that meant "auto"
    "hp_pool_batch_zero": {**BASE, "batch_size": Choice(0, 32)},
    "hp_thread_prune_raises": {**BASE, "prune_after": Choice(5)},
    "hp_results_append_json": BASE,
    "hp_sqlite_locked": BASE,
    "hp_child_rlimit_cpu": {**BASE, "steps": Choice(4000)},
    "hp_child_pipe_hidden_float": {**BASE, "hidden": Uniform(16, 64)},
    "hp_hang_alarm_pool": {**BASE, "steps": Choice(20, 100000)},
}
