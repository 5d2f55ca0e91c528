"""What to run instead: the fastest configuration every run of which passed and which holds none of the
failing conjunctions; among those whose speed cannot be told from the fastest's (within noise, or fewer
than two timed runs a side: crashmatrix.resolve.configs.speed_untold), the one nearest the program's own values (crashmatrix.resolve.defaults). Then what it costs against the others:
the fastest failing configuration (where one ever finished a run) and the safe mode (no DataLoader
workers, no pinned memory) where the run has it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from crashmatrix.resolve.apply import knob_name
from crashmatrix.resolve.configs import Config, faster, metric_for, speed_key, speed_untold
from crashmatrix.resolve.defaults import Defaults
from crashmatrix.resolve.failures import Failure

# The safe mode of the crash reports: no DataLoader workers, no pinned memory.
SAFE_VALUES = {"num_workers": "0", "pin_memory": "false"}
MOST_ALTERNATIVES = 10  # resolution.json lists at most these many other candidates


@dataclass(frozen=True)
class SafeMode:
    axes: dict  # axis (or fixed param) -> the safe value it takes
    best: Config | None  # its fastest configuration that passed every run
    configs: tuple[Config, ...]  # every configuration of the run in safe mode
    fixed: bool  # the run's params set it for every configuration

    @property
    def failed_runs(self) -> int:
        return sum(sum(c.kinds.values()) for c in self.configs)

    @property
    def runs(self) -> int:
        return sum(c.runs for c in self.configs)


@dataclass(frozen=True)
class Choice:
    metric: str  # duration_s or steps_per_s: what "fastest" was measured by
    recommended: Config | None
    alternatives: tuple[Config, ...]  # the other candidates, fastest first
    tied: tuple[Config, ...]  # candidates within noise of the fastest (the recommended among them)
    fastest: Config | None  # the fastest candidate (the recommended unless a tie went to the defaults)
    candidates: int
    fastest_failing: Config | None  # the fastest configuration with a failing run, among those timed
    failing_untimed: int  # configurations with a failing run and no passing run to time
    safe: SafeMode | None


def avoids(config: Config, failures: Sequence[Failure]) -> bool:
    return not any(f.holds(config.spelled) for f in failures)


def choose(configs: Sequence[Config], failures: Sequence[Failure], defaults: Defaults, params: dict) -> Choice:
    candidates = [c for c in configs if c.clean and avoids(c, failures)]
    metric = metric_for(candidates)
    ranked = sorted(candidates, key=lambda c: speed_key(c, metric))
    fastest = ranked[0] if ranked else None
    tied = tuple(c for c in ranked if fastest is not None and (c is fastest or speed_untold(c, fastest, metric)))
    recommended = min(tied, key=lambda c: (defaults.distance(c.spelled), speed_key(c, metric))) if tied else None
    others = tuple(c for c in ranked if c is not recommended)
    failing = [c for c in configs if c.failing]
    timed = [c for c in failing if c.median(metric) is not None]
    fastest_failing = min(timed, key=lambda c: speed_key(c, metric)) if timed else None
    return Choice(
        metric=metric,
        recommended=recommended,
        alternatives=others,
        tied=tied,
        fastest=fastest,
        candidates=len(candidates),
        fastest_failing=fastest_failing,
        failing_untimed=len(failing) - len(timed),
        safe=safe_mode(configs, params, metric),
    )


def _knob(name: str) -> str:
    """The knob an axis or param sets: a knob's own name, else the last part of the app's key
    (`data.loader.num_workers` sets num_workers)."""
    return knob_name(name) or name.rsplit(".", 1)[-1]


def _safe_axes(configs: Sequence[Config], params: dict) -> tuple[dict, dict]:
    """(axis -> its safe value, fixed param -> its value) for num_workers and pin_memory, however named."""
    axes, fixed = {}, {}
    names = list(configs[0].spelled) if configs else []
    for axis in names:
        knob = _knob(axis)
        if knob in SAFE_VALUES:
            axes[axis] = SAFE_VALUES[knob]
    for key, value in params.items():
        knob = _knob(str(key))
        if knob in SAFE_VALUES and knob not in {_knob(a) for a in axes}:
            fixed[key] = value
    return axes, fixed


def safe_mode(configs: Sequence[Config], params: dict, metric: str) -> SafeMode | None:
    """The run's configurations with no workers and no pinned memory; None where it has none."""
    from crashmatrix.cell import spell

    axes, fixed = _safe_axes(configs, params)
    workers = [a for a in list(axes) + list(fixed) if _knob(a) == "num_workers"]
    if not workers:  # without a num_workers setting the run says nothing about the safe mode
        return None
    if any(spell(v) != SAFE_VALUES[_knob(k)] for k, v in fixed.items()):
        return None  # the run fixed workers or pinning on: it has no safe configuration
    safe = tuple(c for c in configs if all(c.spelled.get(a) == v for a, v in axes.items()))
    if not safe:
        return None
    clean = [c for c in safe if c.clean]
    best = None
    for c in clean:
        if best is None or faster(c, best, metric):
            best = c
    shown = {**axes, **{k: spell(v) for k, v in fixed.items()}}
    return SafeMode(shown, best, safe, fixed=not axes)
