"""A hunt's answer in words (one sentence per cause) and as hunt.json (the contract in DESIGN.md)."""

from __future__ import annotations

from collections.abc import Iterable

from crashmatrix.hunt.model import Cond, Run, Space, contains
from crashmatrix.hunt.search import Cause, State, named_cause
from crashmatrix.outcome import ranks_in_order, with_rank_note


def conditions_text(space: Space, cond: Cond) -> str:
    return " and ".join(f"{space.axes[i]}={v}" for i, v in cond)


def cause_ranks(cause: Cause, runs: Iterable[Run]) -> tuple[str, ...]:
    """The ranks of a distributed job whose failure this cause's runs were (where the conditions hold)."""
    return ranks_in_order(
        r.rank
        for r in runs
        if r.kind == cause.kind and (cause.conditions is None or contains(r.cell, cause.conditions))
    )


def cause_sentence(space: Space, cause: Cause, runs: Iterable[Run] = ()) -> str:
    """`crash SIGSEGV when a=1 and c=2: fails 50% of runs there (9 of 18), confidence 0.97`; runs: the hunt's,
    for the ranks a distributed job's failure struck (`rank_crash SIGSEGV (rank 1) when ...`)."""
    kind = with_rank_note(cause.kind.said(), cause_ranks(cause, runs))
    share = f"{cause.rate:.0%} of runs"
    if cause.conditions is None:
        return (
            f"{kind}: background noise, not the configuration: {cause.failing} of {cause.runs} runs of its cell "
            f"failed so, and no conjunction explains it (confidence {cause.confidence:.2f})"
        )
    if not cause.conditions:
        head = f"{kind} in every cell (the program itself, not a configuration): fails {share}"
    else:
        head = f"{kind} when {conditions_text(space, cause.conditions)}: fails {share} there"
    text = f"{head} ({cause.failing} of {cause.runs}), confidence {cause.confidence:.2f}"
    if cause.alternatives:
        others = "; ".join(conditions_text(space, c) or "every cell" for c in cause.alternatives)
        text += f"; the matrix cannot tell it from: {others}"
    return text


def best_so_far(state: State) -> list[Cause]:
    """Named causes, then each open question's leading suspect (below the asked confidence)."""
    return state.causes + [named_cause(loc, loc.best()) for loc in state.open]


def closing_line(space: Space, state: State, runs: int, confidence: float, wanted_clean: int, seeded: int = 0) -> str:
    t = space.order
    after = f"{runs} runs" + (f" (and {seeded} rows of --from)" if seeded else "")
    if state.complete:
        if not state.causes:
            return (
                f"hunt: complete after {after}: no failure; every conjunction of up to {t} values ran clean "
                f"{wanted_clean} time(s) (a cause failing half the time would have shown at confidence {confidence})"
            )
        return (
            f"hunt: complete after {after}: every failure is explained, and every other conjunction "
            f"of up to {t} values ran clean"
        )
    left = []
    if state.open:
        left.append(f"{len(state.open)} failure(s) not pinned down to confidence {confidence}")
    if state.unsure:
        left.append(
            f"{len(state.unsure)} cause(s) named below confidence {confidence}, with nothing left to tell them apart"
        )
    if state.need:
        times = "" if wanted_clean == 1 else f" {wanted_clean} times"
        left.append(f"{len(state.need)} conjunction(s) of up to {t} values not yet run clean{times}")
    head = "best so far" if state.causes or state.open else "no failure yet"
    return f"hunt: partial after {after} (--max-runs): {head}; " + ", ".join(left)


def hunt_json(space: Space, state: State, runs: int, named: dict | None = None, seen: Iterable[Run] = ()) -> dict:
    """`{"causes": [...], "runs": N, "complete": bool, "order": T}`; noise, where seen, under "noise".

    `named`: (kind, conditions) -> this hunt's runs when the cause was named, each cause's `named_after`
    (the answer came then; the runs after it showed that nothing else fails). seen: the hunt's runs, for each
    cause's `ranks` where it was a distributed job's."""
    named = named or {}
    seen = list(seen)
    causes, noise = [], []
    for cause in best_so_far(state):
        kind = cause.kind
        entry: dict = kind.as_json()
        entry.update(
            rate=round(cause.rate, 4), confidence=round(cause.confidence, 4), failing=cause.failing, runs=cause.runs
        )
        ranks = cause_ranks(cause, seen)
        if ranks:
            entry["ranks"] = [int(r) if r.isdigit() else r for r in ranks]
        if (kind, cause.conditions) in named:
            entry["named_after"] = named[(kind, cause.conditions)]
        if cause.conditions is None:
            noise.append(entry)
            continue
        causes.append({"conditions": conditions_dict(space, cause.conditions), **entry})
        if cause.alternatives:
            causes[-1]["alternatives"] = [conditions_dict(space, c) for c in cause.alternatives]
    data: dict = {"causes": causes, "runs": runs, "complete": state.complete, "order": space.order}
    if noise:
        data["noise"] = noise
    return data


def conditions_dict(space: Space, cond: Cond) -> dict:
    """{axis: value} of a conjunction, as hunt.json writes one."""
    return {space.axes[i]: v for i, v in cond}
