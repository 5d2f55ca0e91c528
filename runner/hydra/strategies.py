"""Which jobs `hydra/sweeper=crashmatrix` launches: its settings, the sweep's choices as axes, and the
jobs of `strategy: full` (every combination, as Hydra's basic sweeper) or `pairwise` (a covering array of
strength `order`, crashmatrix.matrix.pairwise). `hunt` chooses its jobs as results come (crashmatrix.hydra.sweeper)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from crashmatrix.cell import spell
from crashmatrix.hydra.jobs import KNOB_NODE, SweepInputError, column, is_knob, knob_column

STRATEGIES = ("full", "pairwise", "hunt")


@dataclass(frozen=True)
class SweeperSettings:
    """hydra.sweeper's settings, checked. order: t of pairwise's t-way coverage (default 2) and of hunt's
    conjunctions (default 3); batch: jobs per launch for hunt (default: hydra.launcher.jobs, else 1)."""

    strategy: str = "full"
    order: int | None = None
    seed: int = 0
    confidence: float = 0.95
    max_runs: int = 200
    batch: int | None = None

    @staticmethod
    def of(node) -> SweeperSettings:
        get = node.get
        strategy = get("strategy", "full")
        if strategy not in STRATEGIES:
            raise SweepInputError(
                f"crashmatrix: hydra.sweeper.strategy: {strategy!r} is not one of {', '.join(STRATEGIES)}"
            )
        for key, low in (("order", 1), ("max_runs", 1), ("batch", 1), ("seed", 0)):
            value = get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < low):
                raise SweepInputError(
                    f"crashmatrix: hydra.sweeper.{key}: expected a whole number >= {low}, got {value!r}"
                )
        confidence = get("confidence", 0.95)
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0.5 <= confidence < 1:
            raise SweepInputError(
                f"crashmatrix: hydra.sweeper.confidence: expected a number in [0.5, 1), got {confidence!r}"
            )
        return SweeperSettings(
            strategy=strategy,
            order=get("order"),
            seed=get("seed", 0) or 0,
            confidence=float(confidence),
            max_runs=get("max_runs", 200),
            batch=get("batch"),
        )


@dataclass(frozen=True)
class Axis:
    """A swept override: `key` as written (`+a`, `db@pkg`), its results.csv column, and its choices as
    written (`texts`) and as results.csv spells them (`spelled`)."""

    key: str
    column: str
    texts: tuple
    spelled: tuple

    def override(self, spelled: str) -> str:
        return f"{self.key}={self.texts[self.spelled.index(spelled)]}"


def split(arguments: list[str], config_loader) -> list:
    """The overrides in the order given: the ones every job gets as they are (str), the swept ones as Axis."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    parsed = OverridesParser.create(config_loader=config_loader).parse_overrides(arguments)
    app_columns = {column(o) for o in parsed if not is_knob(o.key_or_group)}
    plain = OverridesParser.create()  # one value at a time, to spell it as results.csv does
    items: list = []
    for o in parsed:
        if not o.is_sweep_override():
            items.append(o.input_line)
            continue
        key = o.get_key_element()
        texts = tuple(dict.fromkeys(o.sweep_string_iterator()))
        if len(texts) == 1:  # one choice: a constant, in every job as it is, and no axis of the search
            items.append(f"{key}={texts[0]}")
            continue
        spelled = tuple(spell(plain.parse_override(f"{key}={t}").value()) for t in texts)
        name = column(o)
        if is_knob(o.key_or_group):  # the launcher's column for it (parse_jobs), so that a row finds its job
            name = knob_column(name[len(KNOB_NODE) + 1 :], app_columns)
        items.append(Axis(key, name, texts, spelled))
    return items


def axes_of(items: list) -> list[Axis]:
    return [item for item in items if isinstance(item, Axis)]


def job_of(items: list, row: dict) -> list[str]:
    """One job's overrides: each Axis at the value `row` gives its column (results.csv's spelling)."""
    return [item.override(row[item.column]) if isinstance(item, Axis) else item for item in items]


def planned_jobs(settings: SweeperSettings, items: list) -> list[list[str]]:
    """The jobs of `full` (in Hydra's basic sweeper's order) or `pairwise`."""
    axes = axes_of(items)
    if settings.strategy == "full" or not axes:
        rows = [dict(zip([a.column for a in axes], combo)) for combo in itertools.product(*[a.spelled for a in axes])]
    else:
        from crashmatrix.matrix.pairwise import covering_array

        rows = covering_array(
            {a.column: list(a.spelled) for a in axes}, strength=settings.order or 2, seed=settings.seed
        )
    return [job_of(items, row) for row in rows]
