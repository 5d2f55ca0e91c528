"""Covering arrays for ``strategy: pairwise`` (and t-way for t > 2).

``covering_array(axes)`` returns a list of cells (dicts axis -> value) such that
every combination of values of every ``strength`` axes appears in at least one
cell, except the combinations that no allowed cell can contain because of
``exclude`` (GitHub Actions semantics: an exclude entry is a partial assignment,
and a cell matching all of its pairs is forbidden).

How it is built:

1. A greedy, one-row-at-a-time construction (AETG/PICT-like): each new row
   starts from an uncovered t-tuple of the axis combination with the most
   uncovered tuples, then fills the other axes in a random order, each with the
   value that covers the most still-uncovered tuples.
2. A row-deletion local search (after TCA, Lin et al., ASE 2015): once every
   required tuple is covered, the row that covers the fewest tuples on its own is
   deleted and a tabu search re-covers what it lost by changing single entries:
   pick a random uncovered tuple, consider every row that already agrees with it
   on all but one axis, and make the non-tabu change with the best net gain of
   covered tuples (ties and an occasional random walk use the seeded RNG). The
   last complete array is the answer.

Determinism: the search is bounded by a count of *work units* (one unit is
roughly one tuple-coverage lookup), never by the clock. The number of units is
``time_budget_s * _UNITS_PER_SECOND``, calibrated so that a slow, shared 2-core
box finishes well within the budget; the output is therefore a function of
(axes, strength, exclude, seed, time_budget_s) only, whatever the machine load.
``time_budget_s=0`` returns the plain greedy array.

Values are matched by type and value (``True`` is not ``1``, ``1.0`` is not
``1``), internally by index. numpy is imported lazily, inside the functions.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["covering_array", "pairs_uncovered", "uniform_axes"]

# Work units the search may spend per second of ``time_budget_s``. One unit is
# one tuple-coverage lookup (about 6.5 ns on the shared 2-core box this was
# calibrated on, i.e. ~1.5e8 units/s when idle, about 6e7 at load average 6);
# budgeting 4.5e7/s keeps within the budget on that box even when it is busy.
# For scale: the 4^15 3^17 2^29 model reaches 31 rows within 1e7 units and 29
# within 2e7-8e7; 3^13 reaches 15 within 1e7.
_UNITS_PER_SECOND = 4.5e7
# Fixed cost, in units, charged per local-search step (~50 us of numpy call
# overhead on the same box), and per exclude check of a candidate move.
_STEP_OVERHEAD_UNITS = 7700
_EXCLUDE_CHECK_UNITS = 150


# ----------------------------------------------------------------------------
# model: axes as index ranges, excludes as {column: value index}
# ----------------------------------------------------------------------------


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _index_of(values: Sequence[Any], x: Any) -> int:
    for i, v in enumerate(values):
        if _same(v, x):
            return i
    return -1


def _distinct_values(name: str, values: Any) -> list[Any]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise ValueError(f"axis {name!r}: expected a list of values, got {values!r}")
    distinct: list[Any] = []
    for v in values:
        if _index_of(distinct, v) < 0:
            distinct.append(v)
    if not distinct:
        raise ValueError(f"axis {name!r}: expected at least one value")
    return distinct


class _Model:
    """Axes as columns of value indices; exclude entries as {column: value index}."""

    def __init__(self, axes: Mapping[str, Sequence[Any]], exclude: Iterable[Mapping[str, Any]]):
        self.names = list(axes)
        self.values: list[list[Any]] = [_distinct_values(name, axes[name]) for name in self.names]
        self.sizes = [len(v) for v in self.values]
        self.n_axes = len(self.names)
        self.excludes: list[dict[int, int]] = []
        for entry in exclude or ():
            indexed = self._indexed_entry(entry)
            if indexed is not None:
                self.excludes.append(indexed)
        self.exclude_cols = sorted({col for entry in self.excludes for col in entry})
        self.excludes_by_col: list[list[dict[int, int]]] = [[] for _ in range(self.n_axes)]
        for indexed_entry in self.excludes:
            for col in indexed_entry:
                self.excludes_by_col[col].append(indexed_entry)
        self._completable_memo: dict[tuple, bool] = {}

    def _indexed_entry(self, entry: Any) -> dict[int, int] | None:
        """An exclude entry as {column: value index}; None when it names a value the axis lacks."""
        if not isinstance(entry, Mapping):
            raise ValueError(f"exclude entry {entry!r}: expected a mapping axis -> value")
        column_of = {n: i for i, n in enumerate(self.names)}
        indexed: dict[int, int] = {}
        for name, value in entry.items():
            if name not in column_of:
                raise ValueError(f"exclude entry {dict(entry)!r}: {name!r} is not an axis")
            i = _index_of(self.values[column_of[name]], value)
            if i < 0:  # a value the axis does not have: the entry never matches
                return None
            indexed[column_of[name]] = i
        return indexed

    # -- excludes ---------------------------------------------------------

    def row_ok(self, row: Sequence[int]) -> bool:
        for entry in self.excludes:
            if all(row[col] == v for col, v in entry.items()):
                return False
        return True

    def change_ok(self, row: Sequence[int], col: int, value: int) -> bool:
        """Would ``row`` with column ``col`` set to ``value`` match no exclude entry?"""
        for entry in self.excludes_by_col[col]:
            if entry[col] == value and all(row[other] == v for other, v in entry.items() if other != col):
                return False
        return True

    def extendable(self, partial: Mapping[int, int]) -> bool:
        """Can the partial assignment {column: value index} be completed to an allowed row?"""
        if not self.excludes:
            return True
        key = tuple(sorted((col, v) for col, v in partial.items() if self.excludes_by_col[col]))
        hit = self._completable_memo.get(key)
        if hit is None:
            hit = self._completable_memo[key] = self._completable(dict(key))
        return hit

    def _completable(self, assign: dict[int, int]) -> bool:
        # branch on the unassigned columns of the matching exclude entry closest to complete
        fewest_open = None
        for entry in self.excludes:
            unassigned = []
            broken = False
            for col, v in entry.items():
                given = assign.get(col)
                if given is None:
                    unassigned.append(col)
                elif given != v:
                    broken = True
                    break
            if broken:
                continue
            if not unassigned:
                return False
            if fewest_open is None or len(unassigned) < len(fewest_open):
                fewest_open = unassigned
        if fewest_open is None:
            return True
        col = fewest_open[0]
        for value in range(self.sizes[col]):
            assign[col] = value
            ok = self._completable(assign)
            del assign[col]
            if ok:
                return True
        return False

    def to_row(self, idx: Sequence[int]) -> dict[str, Any]:
        return {n: self.values[col][int(i)] for col, (n, i) in enumerate(zip(self.names, idx))}


def _full_product(model: _Model) -> list[list[int]]:
    return [list(r) for r in itertools.product(*(range(s) for s in model.sizes)) if model.row_ok(r)]


# ----------------------------------------------------------------------------
# tuple index: every t-tuple of (columns, values) gets an integer id
# ----------------------------------------------------------------------------


class _Index:
    """Tuple ids: the id of t-tuple (cols, vals) is ``base[combo] + sum(vals * mults[combo])``,
    combos being the column combinations in itertools order."""

    def __init__(self, model: _Model, strength: int):
        import numpy as np

        combos = list(itertools.combinations(range(model.n_axes), strength))
        cols = np.array(combos, dtype=np.int64).reshape(len(combos), strength)
        sizes_at = np.asarray(model.sizes, dtype=np.int64)[cols]
        mults = np.ones_like(cols)
        for j in range(strength - 2, -1, -1):
            mults[:, j] = mults[:, j + 1] * sizes_at[:, j + 1]
        counts = sizes_at.prod(axis=1)
        base = np.zeros(len(combos), dtype=np.int64)
        base[1:] = np.cumsum(counts)[:-1]
        self.strength = strength
        self.cols, self.mults, self.base, self.counts = cols, mults, base, counts
        self.n_tuples = int(counts.sum())
        combo_of = np.repeat(np.arange(len(combos)), counts)
        local = np.arange(self.n_tuples, dtype=np.int64) - base[combo_of]
        self.tuple_cols = cols[combo_of]
        self.tuple_vals = (local[:, None] // mults[combo_of]) % sizes_at[combo_of]
        self._split_by_column(model.n_axes)

    def _split_by_column(self, n_axes: int) -> None:
        """Per column c, the combos containing c, split into c's own term and the rest:
        the id of such a tuple is combo_base[c] + value_of_c * own_mult[c] + sum(others * other_mults[c])."""
        import numpy as np

        strength, cols, mults = self.strength, self.cols, self.mults
        combos_per_col = len(list(itertools.combinations(range(n_axes - 1), strength - 1)))
        other_cols = np.zeros((n_axes, combos_per_col, strength - 1), dtype=np.int64)
        other_mults = np.zeros((n_axes, combos_per_col, strength - 1), dtype=np.int64)
        own_mult = np.zeros((n_axes, combos_per_col), dtype=np.int64)
        combo_base = np.zeros((n_axes, combos_per_col), dtype=np.int64)
        for col in range(n_axes):
            combos = np.flatnonzero((cols == col).any(axis=1))
            pos = np.argmax(cols[combos] == col, axis=1)
            keep = np.ones((len(combos), strength), dtype=bool)
            keep[np.arange(len(combos)), pos] = False
            other_cols[col] = cols[combos][keep].reshape(len(combos), strength - 1)
            other_mults[col] = mults[combos][keep].reshape(len(combos), strength - 1)
            own_mult[col] = mults[combos, pos]
            combo_base[col] = self.base[combos]
        if strength == 2:  # drop the singleton last axis: cheaper gathers
            other_cols, other_mults = other_cols[:, :, 0], other_mults[:, :, 0]
        self.other_cols, self.other_mults = other_cols, other_mults
        self.own_mult, self.combo_base, self.combos_per_col = own_mult, combo_base, combos_per_col

    def row_ids(self, rows):
        """Ids of all t-tuples of each row of ``rows`` (N x k) -> N x combos."""
        return self.base + (rows[:, self.cols] * self.mults).sum(axis=-1)

    def required(self, model: _Model):
        """Bool mask of tuples some allowed row can contain."""
        import numpy as np

        req = np.ones(self.n_tuples, dtype=bool)
        if not model.excludes:
            return req
        exclude_cols = set(model.exclude_cols)
        any_row = model.extendable({})
        for combo in range(len(self.cols)):
            cols = [int(c) for c in self.cols[combo]]
            lo, hi = int(self.base[combo]), int(self.base[combo] + self.counts[combo])
            if not exclude_cols.intersection(cols):
                req[lo:hi] = any_row
                continue
            for tuple_id in range(lo, hi):
                req[tuple_id] = model.extendable(dict(zip(cols, (int(v) for v in self.tuple_vals[tuple_id]))))
        return req


# ----------------------------------------------------------------------------
# construction: greedy rows
# ----------------------------------------------------------------------------

_SENTINEL = 1 << 40  # coverage count of tuples that need no covering


class _Search:
    """What the greedy construction and the row-deletion search share: the model, the
    tuple index, the seeded RNG (one stream, in a fixed order) and the work spent."""

    def __init__(self, model: _Model, strength: int, seed: int):
        import numpy as np

        self.np = np
        self.model = model
        self.index = _Index(model, strength)
        self.required = self.index.required(model)
        self.rng = np.random.default_rng(seed)
        self.work = 0  # budget units spent
        # t > 2 steps cost more per step and per lookup (measured ~2x and ~4x for t=3)
        self.step_units = _STEP_OVERHEAD_UNITS * (strength - 1)
        self.lookup_units = 1 if strength == 2 else 2 * (strength - 1)

    def fresh_coverage(self):
        """Times each tuple is covered, by no row yet; tuples not required count as covered."""
        coverage = self.np.zeros(self.index.n_tuples, dtype=self.np.int64)
        coverage[~self.required] = _SENTINEL
        return coverage

    def lower_bound(self) -> int:
        """No covering array is smaller; the search stops when it gets there."""
        np, model = self.np, self.model
        per_combo = np.add.reduceat(self.required.astype(np.int64), self.index.base)
        floor = int(per_combo.max())
        if self.index.strength == 2 and not model.excludes and all(v == 2 for v in model.sizes):
            # binary strength 2 is solved (Katona; Kleitman-Spencer): the least N
            # with C(N-1, ceil(N/2)) >= k
            from math import comb

            n = 4
            while comb(n - 1, (n + 1) // 2) < model.n_axes:
                n += 1
            floor = max(floor, n)
        return floor

    def greedy(self):
        """Rows until every required tuple is covered: (rows N x k, coverage counts)."""
        np, index, rng = self.np, self.index, self.rng
        n_axes = self.model.n_axes
        coverage = self.fresh_coverage()
        rows = []
        while True:
            uncovered = coverage == 0
            if not uncovered.any():
                break
            # seed the row with an uncovered tuple of a combination with the most uncovered
            per_combo = np.add.reduceat(uncovered.astype(np.int64), index.base)
            top = np.flatnonzero(per_combo == per_combo.max())
            combo = int(top[rng.integers(len(top))])
            lo = int(index.base[combo])
            open_ids = lo + np.flatnonzero(uncovered[lo : lo + int(index.counts[combo])])
            tuple_id = int(open_ids[rng.integers(len(open_ids))])
            row = np.full(n_axes, -1, dtype=np.int64)
            row[index.tuple_cols[tuple_id]] = index.tuple_vals[tuple_id]
            fixed = {int(c): int(v) for c, v in zip(index.tuple_cols[tuple_id], index.tuple_vals[tuple_id])}
            if index.strength == 2:
                self._fill_pairs(row, fixed, coverage)
            else:
                self._fill_tuples(row, fixed, coverage)
            coverage[index.row_ids(row[None, :])[0]] += 1
            rows.append(row)
        return np.array(rows, dtype=np.int64).reshape(len(rows), n_axes), coverage

    def _fill_tuples(self, row, fixed, coverage):
        """t > 2: the other axes in a random order, each with the value covering the most."""
        np, index, model, rng = self.np, self.index, self.model, self.rng
        rest = [c for c in rng.permutation(model.n_axes).tolist() if c not in fixed]
        for col in rest:
            others = index.other_cols[col]
            complete = np.flatnonzero((row[others] >= 0).all(axis=1))
            partial_ids = index.combo_base[col][complete] + (
                row[others[complete]] * index.other_mults[col][complete]
            ).sum(axis=1)
            ids = partial_ids[None, :] + np.arange(model.sizes[col])[:, None] * index.own_mult[col][complete][None, :]
            self.work += ids.size * self.lookup_units
            gain = (coverage[ids] == 0).sum(axis=1)
            if model.excludes_by_col[col]:
                for value in range(model.sizes[col]):
                    fixed[col] = value
                    if not model.extendable(fixed):
                        gain[value] = -1
                del fixed[col]
            best = np.flatnonzero(gain == gain.max())
            value = int(best[rng.integers(len(best))])
            row[col] = value
            fixed[col] = value

    def _fill_pairs(self, row, fixed, coverage):
        """t=2: repeatedly fix the (axis, value) that covers the most uncovered pairs
        with the axes already fixed (a density-style greedy; ties at random)."""
        np, index, model, rng = self.np, self.index, self.model, self.rng
        sizes = np.asarray(model.sizes)
        most_values = int(sizes.max())
        never = -(1 << 40)
        value_range = np.arange(most_values)
        # gain[c, a]: uncovered pairs that setting column c to a would cover
        gain = np.zeros((model.n_axes, most_values), dtype=np.int64)
        gain[value_range[None, :] >= sizes[:, None]] = never

        def fix(col, value):
            others = index.other_cols[col]
            real = value_range[None, :] < sizes[others][:, None]
            ids = (
                index.combo_base[col][:, None]
                + value * index.own_mult[col][:, None]
                + value_range[None, :] * index.other_mults[col][:, None]
            )
            ids = np.where(real, ids, 0)
            self.work += ids.size
            gain[others] += (coverage[ids] == 0) & real
            gain[col] = never

        for col, value in fixed.items():
            fix(col, value)
        for _ in range(model.n_axes - len(fixed)):
            allowed_gain = self._excluded_out(gain, fixed, never + 1) if model.excludes else gain
            top = np.flatnonzero(allowed_gain == allowed_gain.max())
            col, value = divmod(int(top[rng.integers(len(top))]), most_values)
            row[col] = value
            fixed[col] = value
            fix(col, value)

    def _excluded_out(self, gain, fixed, excluded):
        """A copy of ``gain`` where a choice that no allowed row can complete scores ``excluded``."""
        model = self.model
        allowed_gain = gain.copy()
        for col in model.exclude_cols:
            if col in fixed:
                continue
            for value in range(model.sizes[col]):
                fixed[col] = value
                if not model.extendable(fixed):
                    allowed_gain[col, value] = excluded
            del fixed[col]
        return allowed_gain


# ----------------------------------------------------------------------------
# row-deletion tabu search
# ----------------------------------------------------------------------------


class _RowDeletion:
    """Delete the weakest row of a complete array, re-cover with single-entry moves, repeat."""

    TABU_TENURE = 2  # steps a changed entry may not change again

    def __init__(self, search: _Search):
        self.search = search
        self.step = 0
        self.tabu = None  # per entry: the first step it may change again

    def shrink(self, rows, coverage, max_work: float):
        """The smallest complete array seen before ``max_work`` units are spent."""
        search = self.search
        np, rng = search.np, search.rng
        floor = search.lower_bound()
        best = rows.copy()
        self.tabu = np.zeros(rows.shape, dtype=np.int64)
        while search.work < max_work:
            uncovered = np.flatnonzero(coverage == 0)
            if len(uncovered) == 0:
                best = rows.copy()
                if len(rows) <= max(floor, 1):
                    break
                rows = self._delete_weakest_row(rows, coverage)
                self.tabu = np.zeros(rows.shape, dtype=np.int64)
                continue
            self.step += 1
            search.work += search.step_units
            tuple_id = int(uncovered[rng.integers(len(uncovered))])
            moves = self._moves_covering(rows, tuple_id)
            if len(moves[0]) == 0:
                self._random_cover(rows, coverage, tuple_id)
                continue
            self._make_best_move(rows, coverage, *moves)
        return best

    def _delete_weakest_row(self, rows, coverage):
        """Drop the row that alone covers the fewest tuples (ties at random)."""
        search = self.search
        np, rng = search.np, search.rng
        ids = search.index.row_ids(rows)
        search.work += ids.size
        covered_alone = (coverage[ids] == 1).sum(axis=1)
        weakest = np.flatnonzero(covered_alone == covered_alone.min())
        row = int(weakest[rng.integers(len(weakest))])
        coverage[ids[row]] -= 1
        return np.delete(rows, row, axis=0)

    def _moves_covering(self, rows, tuple_id):
        """Single-entry changes that cover the tuple: rows agreeing with it on all but one
        column, not tabu, not excluded -> (row numbers, columns, new values)."""
        search = self.search
        np, index, model = search.np, search.index, search.model
        tuple_cols, tuple_vals = index.tuple_cols[tuple_id], index.tuple_vals[tuple_id]
        match = rows[:, tuple_cols] == tuple_vals
        near_rows = np.flatnonzero(match.sum(axis=1) == index.strength - 1)
        if not len(near_rows):
            return near_rows, near_rows, near_rows
        differing = np.argmin(match[near_rows], axis=1)
        cols, values = tuple_cols[differing], tuple_vals[differing]
        ok = self.tabu[near_rows, cols] <= self.step
        if model.excludes:
            search.work += _EXCLUDE_CHECK_UNITS * len(near_rows)
            for i in np.flatnonzero(ok):
                if not model.change_ok(rows[near_rows[i]], int(cols[i]), int(values[i])):
                    ok[i] = False
        return near_rows[ok], cols[ok], values[ok]

    def _make_best_move(self, rows, coverage, move_rows, cols, values):
        """Make the move with the best net gain of covered tuples (ties, and 1% of the time any, at random)."""
        search = self.search
        np, index, rng = search.np, search.index, search.rng
        moved = rows[move_rows]
        n_moves = len(move_rows)
        if index.strength == 2:
            others = moved[np.arange(n_moves)[:, None], index.other_cols[cols]]
            partial_ids = index.combo_base[cols] + others * index.other_mults[cols]
        else:
            others = moved[np.arange(n_moves)[:, None, None], index.other_cols[cols]]
            partial_ids = index.combo_base[cols] + (others * index.other_mults[cols]).sum(axis=-1)
        own_mult = index.own_mult[cols]
        ids_old = partial_ids + moved[np.arange(n_moves), cols][:, None] * own_mult
        ids_new = partial_ids + values[:, None] * own_mult
        search.work += 2 * n_moves * index.combos_per_col * search.lookup_units
        score = (coverage[ids_new] == 0).sum(axis=1) - (coverage[ids_old] == 1).sum(axis=1)
        if rng.random() < 0.01:
            i = int(rng.integers(n_moves))
        else:
            top = np.flatnonzero(score == score.max())
            i = int(top[rng.integers(len(top))])
        row, col = int(move_rows[i]), int(cols[i])
        coverage[ids_old[i]] -= 1
        coverage[ids_new[i]] += 1
        rows[row, col] = values[i]
        self.tabu[row, col] = self.step + self.TABU_TENURE

    def _random_cover(self, rows, coverage, tuple_id):
        """No single-entry move covers the tuple: overwrite its t entries in a random row."""
        search = self.search
        index, model, rng = search.index, search.model, search.rng
        tuple_cols, tuple_vals = index.tuple_cols[tuple_id], index.tuple_vals[tuple_id]
        for r in rng.permutation(len(rows)).tolist():
            row = rows[r].copy()
            row[tuple_cols] = tuple_vals
            if model.row_ok(row.tolist()):
                old = index.row_ids(rows[r : r + 1])[0]
                new = index.row_ids(row[None, :])[0]
                coverage[old] -= 1
                coverage[new] += 1
                rows[r] = row
                search.work += 4 * len(old)
                return
        search.work += search.step_units  # nothing to do; the budget still ends the loop


# ----------------------------------------------------------------------------
# public API
# ----------------------------------------------------------------------------


def covering_array(
    axes: Mapping[str, Sequence[Any]],
    *,
    strength: int = 2,
    exclude: Iterable[Mapping[str, Any]] = (),
    seed: int = 0,
    time_budget_s: float = 1.5,
) -> list[dict[str, Any]]:
    """Rows (dicts axis -> value, in ``axes`` order) covering every t-way combination.

    ``strength`` is t. ``exclude`` entries are partial assignments; no returned row
    matches all pairs of any entry, and t-tuples that no allowed row can contain
    are not required. ``strength >= len(axes)`` gives the (filtered) full product.
    Deterministic for given arguments; ``time_budget_s`` sets an iteration budget
    (not a clock), and 0 means greedy only. Raises ValueError for an empty axis,
    a non-list axis, or an exclude entry naming an unknown axis; an exclude value
    the axis does not have never matches.
    """
    if not isinstance(strength, int) or isinstance(strength, bool) or strength < 1:
        raise ValueError(f"strength: expected an integer >= 1, got {strength!r}")
    model = _Model(axes, exclude)
    if not model.extendable({}):
        return []
    if model.n_axes == 0:
        return [{}]
    if strength >= model.n_axes:
        return [model.to_row(r) for r in _full_product(model)]
    search = _Search(model, strength, seed)
    rows, coverage = search.greedy()
    if time_budget_s > 0 and len(rows) > search.lower_bound():
        max_work = search.work + float(time_budget_s) * _UNITS_PER_SECOND
        rows = _RowDeletion(search).shrink(rows, coverage, max_work)
    return [model.to_row(r) for r in sorted(tuple(int(x) for x in r) for r in rows)]


def pairs_uncovered(
    rows: Sequence[Mapping[str, Any]],
    axes: Mapping[str, Sequence[Any]],
    strength: int = 2,
    exclude: Iterable[Mapping[str, Any]] = (),
) -> list[dict[str, Any]]:
    """The t-tuples (as dicts axis -> value) that ``rows`` should cover and do not.

    A tuple needs covering when some row allowed by ``exclude`` contains it.
    Pure Python, meant for checking results in tests.
    """
    model = _Model(axes, exclude)
    k = model.n_axes
    t = min(strength, k)
    seen: set[tuple] = set()
    for row in rows:
        idx = []
        for c, name in enumerate(model.names):
            i = _index_of(model.values[c], row[name])
            if i < 0:
                raise ValueError(f"row {dict(row)!r}: {name}={row[name]!r} is not a value of the axis")
            idx.append(i)
        for cs in itertools.combinations(range(k), t):
            seen.add((cs, tuple(idx[c] for c in cs)))
    missing = []
    for cs in itertools.combinations(range(k), t):
        for vs in itertools.product(*(range(model.sizes[c]) for c in cs)):
            if (cs, vs) in seen:
                continue
            if not model.extendable(dict(zip(cs, vs))):
                continue
            missing.append({model.names[c]: model.values[c][v] for c, v in zip(cs, vs)})
    return missing


def uniform_axes(*spec: tuple[int, int]) -> dict[str, list[int]]:
    """Axes in the covering-array literature's q^k notation, for tests and benchmarks:
    uniform_axes((3, 4), (2, 2)) (3^4 2^2) -> {a0: [0,1,2], ..., a3: [...], a4: [0,1], a5: [0,1]}"""
    axes, i = {}, 0
    for size, count in spec:
        for _ in range(count):
            axes[f"a{i}"] = list(range(size))
            i += 1
    return axes
