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
from typing import Any, Iterable, Mapping, Sequence

__all__ = ["covering_array", "pairs_uncovered"]

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


class _Model:
    def __init__(self, axes: Mapping[str, Sequence[Any]], exclude: Iterable[Mapping[str, Any]]):
        self.names = list(axes)
        self.values: list[list[Any]] = []
        for name in self.names:
            vals = axes[name]
            if isinstance(vals, (str, bytes)) or not isinstance(vals, Iterable):
                raise ValueError(f"axis {name!r}: expected a list of values, got {vals!r}")
            uniq: list[Any] = []
            for v in vals:
                if _index_of(uniq, v) < 0:
                    uniq.append(v)
            if not uniq:
                raise ValueError(f"axis {name!r}: expected at least one value")
            self.values.append(uniq)
        self.sizes = [len(v) for v in self.values]
        self.k = len(self.names)
        col = {n: i for i, n in enumerate(self.names)}
        self.excl: list[dict[int, int]] = []
        for entry in exclude or ():
            if not isinstance(entry, Mapping):
                raise ValueError(f"exclude entry {entry!r}: expected a mapping axis -> value")
            e: dict[int, int] = {}
            matchable = True
            for name, value in entry.items():
                if name not in col:
                    raise ValueError(f"exclude entry {dict(entry)!r}: {name!r} is not an axis")
                i = _index_of(self.values[col[name]], value)
                if i < 0:  # a value the axis does not have: the entry never matches
                    matchable = False
                    break
                e[col[name]] = i
            if matchable:
                self.excl.append(e)
        self.excl_cols = sorted({c for e in self.excl for c in e})
        self.excl_by_col: list[list[dict[int, int]]] = [[] for _ in range(self.k)]
        for e in self.excl:
            for c in e:
                self.excl_by_col[c].append(e)
        self._memo: dict[tuple, bool] = {}

    # -- excludes ---------------------------------------------------------

    def row_ok(self, row: Sequence[int]) -> bool:
        for e in self.excl:
            if all(row[c] == v for c, v in e.items()):
                return False
        return True

    def change_ok(self, row: Sequence[int], c: int, a: int) -> bool:
        """Would ``row`` with column c set to a match no exclude entry?"""
        for e in self.excl_by_col[c]:
            if e[c] == a and all(row[cc] == v for cc, v in e.items() if cc != c):
                return False
        return True

    def extendable(self, partial: Mapping[int, int]) -> bool:
        """Can the partial assignment {column: value index} be completed to an allowed row?"""
        if not self.excl:
            return True
        key = tuple(sorted((c, v) for c, v in partial.items() if self.excl_by_col[c]))
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self._ext(dict(key))
        return hit

    def _ext(self, assign: dict[int, int]) -> bool:
        best = None
        for e in self.excl:
            unassigned = []
            broken = False
            for c, v in e.items():
                a = assign.get(c)
                if a is None:
                    unassigned.append(c)
                elif a != v:
                    broken = True
                    break
            if broken:
                continue
            if not unassigned:
                return False
            if best is None or len(unassigned) < len(best):
                best = unassigned
        if best is None:
            return True
        c = best[0]
        for a in range(self.sizes[c]):
            assign[c] = a
            ok = self._ext(assign)
            del assign[c]
            if ok:
                return True
        return False

    def to_row(self, idx: Sequence[int]) -> dict[str, Any]:
        return {n: self.values[c][int(i)] for c, (n, i) in enumerate(zip(self.names, idx))}


def _full_product(model: _Model) -> list[list[int]]:
    return [
        list(r)
        for r in itertools.product(*(range(s) for s in model.sizes))
        if model.row_ok(r)
    ]


# ----------------------------------------------------------------------------
# tuple index: every t-tuple of (columns, values) gets an integer id
# ----------------------------------------------------------------------------


class _Index:
    def __init__(self, model: _Model, t: int):
        import numpy as np

        k, sizes = model.k, model.sizes
        combos = list(itertools.combinations(range(k), t))
        cols = np.array(combos, dtype=np.int64).reshape(len(combos), t)
        sz = np.asarray(sizes, dtype=np.int64)[cols]
        mults = np.ones_like(cols)
        for j in range(t - 2, -1, -1):
            mults[:, j] = mults[:, j + 1] * sz[:, j + 1]
        counts = sz.prod(axis=1)
        base = np.zeros(len(combos), dtype=np.int64)
        base[1:] = np.cumsum(counts)[:-1]
        self.t = t
        self.cols, self.mults, self.base, self.counts = cols, mults, base, counts
        self.P = int(counts.sum())
        combo_of = np.repeat(np.arange(len(combos)), counts)
        local = np.arange(self.P, dtype=np.int64) - base[combo_of]
        self.tcols = cols[combo_of]
        self.tvals = (local[:, None] // mults[combo_of]) % sz[combo_of]
        # per column c: the combos containing c, split into c's own term and the rest
        Qc = len(list(itertools.combinations(range(k - 1), t - 1)))
        OC = np.zeros((k, Qc, t - 1), dtype=np.int64)
        MO = np.zeros((k, Qc, t - 1), dtype=np.int64)
        MC = np.zeros((k, Qc), dtype=np.int64)
        BC = np.zeros((k, Qc), dtype=np.int64)
        for c in range(k):
            qs = np.flatnonzero((cols == c).any(axis=1))
            pos = np.argmax(cols[qs] == c, axis=1)
            keep = np.ones((len(qs), t), dtype=bool)
            keep[np.arange(len(qs)), pos] = False
            OC[c] = cols[qs][keep].reshape(len(qs), t - 1)
            MO[c] = mults[qs][keep].reshape(len(qs), t - 1)
            MC[c] = mults[qs, pos]
            BC[c] = base[qs]
        if t == 2:  # drop the singleton last axis: cheaper gathers
            OC, MO = OC[:, :, 0], MO[:, :, 0]
        self.OC, self.MO, self.MC, self.BC, self.Qc = OC, MO, MC, BC, Qc

    def row_ids(self, A):
        """Ids of all t-tuples of each row of A (N x k) -> N x C."""
        return self.base + (A[:, self.cols] * self.mults).sum(axis=-1)

    def required(self, model: _Model):
        """Bool mask of tuples some allowed row can contain."""
        import numpy as np

        req = np.ones(self.P, dtype=bool)
        if not model.excl:
            return req
        exc = set(model.excl_cols)
        glob = model.extendable({})
        for q in range(len(self.cols)):
            cs = [int(c) for c in self.cols[q]]
            lo, hi = int(self.base[q]), int(self.base[q] + self.counts[q])
            if not exc.intersection(cs):
                req[lo:hi] = glob
                continue
            for u in range(lo, hi):
                req[u] = model.extendable(dict(zip(cs, (int(v) for v in self.tvals[u]))))
        return req


# ----------------------------------------------------------------------------
# construction and search
# ----------------------------------------------------------------------------

_SENTINEL = 1 << 40  # coverage count of tuples that need no covering


class _Search:
    def __init__(self, model: _Model, t: int, seed: int):
        import numpy as np

        self.np = np
        self.m = model
        self.ix = _Index(model, t)
        self.req = self.ix.required(model)
        self.rng = np.random.default_rng(seed)
        self.work = 0  # budget units spent
        # t > 2 steps cost more per step and per lookup (measured ~2x and ~4x for t=3)
        self.step_units = _STEP_OVERHEAD_UNITS * (t - 1)
        self.lookup_units = 1 if t == 2 else 2 * (t - 1)

    def fresh_cov(self):
        np = self.np
        cov = np.zeros(self.ix.P, dtype=np.int64)
        cov[~self.req] = _SENTINEL
        return cov

    def lower_bound(self) -> int:
        """No covering array is smaller; the search stops when it gets there."""
        np = self.np
        per = np.add.reduceat(self.req.astype(np.int64), self.ix.base)
        lb = int(per.max())
        m = self.m
        if self.ix.t == 2 and not m.excl and all(v == 2 for v in m.sizes):
            # binary strength 2 is solved (Katona; Kleitman-Spencer): the least N
            # with C(N-1, ceil(N/2)) >= k
            from math import comb

            n = 4
            while comb(n - 1, (n + 1) // 2) < m.k:
                n += 1
            lb = max(lb, n)
        return lb

    # -- greedy -------------------------------------------------------------

    def greedy(self):
        np, ix, m, rng = self.np, self.ix, self.m, self.rng
        k, t = m.k, ix.t
        cov = self.fresh_cov()
        rows = []
        while True:
            unc = cov == 0
            if not unc.any():
                break
            per = np.add.reduceat(unc.astype(np.int64), ix.base)
            top = np.flatnonzero(per == per.max())
            q = int(top[rng.integers(len(top))])
            lo = int(ix.base[q])
            cand = lo + np.flatnonzero(unc[lo : lo + int(ix.counts[q])])
            u = int(cand[rng.integers(len(cand))])
            row = np.full(k, -1, dtype=np.int64)
            row[ix.tcols[u]] = ix.tvals[u]
            fixed = {int(c): int(v) for c, v in zip(ix.tcols[u], ix.tvals[u])}
            if t == 2:
                self._fill_pairs(row, fixed, cov)
                cov[ix.row_ids(row[None, :])[0]] += 1
                rows.append(row)
                continue
            rest = [c for c in rng.permutation(k).tolist() if c not in fixed]
            for c in rest:
                oc = ix.OC[c]  # t > 2 here: pairs were filled by _fill_pairs above
                sel = np.flatnonzero((row[oc] >= 0).all(axis=1))
                part = ix.BC[c][sel] + (row[oc[sel]] * ix.MO[c][sel]).sum(axis=1)
                ids = part[None, :] + np.arange(m.sizes[c])[:, None] * ix.MC[c][sel][None, :]
                self.work += ids.size * self.lookup_units
                gain = (cov[ids] == 0).sum(axis=1)
                if m.excl_by_col[c]:
                    for a in range(m.sizes[c]):
                        fixed[c] = a
                        if not m.extendable(fixed):
                            gain[a] = -1
                    del fixed[c]
                best = np.flatnonzero(gain == gain.max())
                a = int(best[rng.integers(len(best))])
                row[c] = a
                fixed[c] = a
            cov[ix.row_ids(row[None, :])[0]] += 1
            rows.append(row)
        return np.array(rows, dtype=np.int64).reshape(len(rows), k), cov

    def _fill_pairs(self, row, fixed, cov):
        """t=2: repeatedly fix the (axis, value) that covers the most uncovered pairs
        with the axes already fixed (a density-style greedy; ties at random)."""
        np, ix, m, rng = self.np, self.ix, self.m, self.rng
        k = m.k
        sizes = np.asarray(m.sizes)
        vmax = int(sizes.max())
        neg = -(1 << 40)
        ar = np.arange(vmax)
        G = np.zeros((k, vmax), dtype=np.int64)
        G[ar[None, :] >= sizes[:, None]] = neg

        def fix(f, b):
            cs = ix.OC[f]
            ok = ar[None, :] < sizes[cs][:, None]
            ids = ix.BC[f][:, None] + b * ix.MC[f][:, None] + ar[None, :] * ix.MO[f][:, None]
            ids = np.where(ok, ids, 0)
            self.work += ids.size
            G[cs] += (cov[ids] == 0) & ok
            G[f] = neg

        for f, b in fixed.items():
            fix(f, b)
        for _ in range(k - len(fixed)):
            H = G
            if m.excl:
                H = G.copy()
                for c in m.excl_cols:
                    if c in fixed:
                        continue
                    for a in range(m.sizes[c]):
                        fixed[c] = a
                        if not m.extendable(fixed):
                            H[c, a] = neg + 1
                    del fixed[c]
            top = np.flatnonzero(H == H.max())
            c, a = divmod(int(top[rng.integers(len(top))]), vmax)
            row[c] = a
            fixed[c] = a
            fix(c, a)

    # -- row-deletion tabu search ------------------------------------------

    def shrink(self, A, cov, max_work: float):
        np, ix, m, rng = self.np, self.ix, self.m, self.rng
        t = ix.t
        lb = self.lower_bound()
        best = A.copy()
        tenure = 2
        tabu = np.zeros(A.shape, dtype=np.int64)
        step = 0
        OC, MO, MC, BC = ix.OC, ix.MO, ix.MC, ix.BC
        Qc = ix.Qc
        while self.work < max_work:
            unc = np.flatnonzero(cov == 0)
            if len(unc) == 0:
                best = A.copy()
                if len(A) <= max(lb, 1):
                    break
                ids = ix.row_ids(A)
                self.work += ids.size
                uniq = (cov[ids] == 1).sum(axis=1)
                low = np.flatnonzero(uniq == uniq.min())
                r = int(low[rng.integers(len(low))])
                cov[ids[r]] -= 1
                A = np.delete(A, r, axis=0)
                tabu = np.zeros(A.shape, dtype=np.int64)
                continue
            step += 1
            self.work += self.step_units
            u = int(unc[rng.integers(len(unc))])
            tc, tv = ix.tcols[u], ix.tvals[u]
            match = A[:, tc] == tv
            near = match.sum(axis=1) == t - 1
            R = np.flatnonzero(near)
            if len(R):
                j = np.argmin(match[R], axis=1)
                C = tc[j]
                V = tv[j]
                ok = tabu[R, C] <= step
                if m.excl:
                    self.work += _EXCLUDE_CHECK_UNITS * len(R)
                    for i in np.flatnonzero(ok):
                        if not m.change_ok(A[R[i]], int(C[i]), int(V[i])):
                            ok[i] = False
                R, C, V = R[ok], C[ok], V[ok]
            if len(R) == 0:
                self._random_cover(A, cov, u)
                continue
            sub = A[R]
            M = len(R)
            if t == 2:
                o = sub[np.arange(M)[:, None], OC[C]]
                part = BC[C] + o * MO[C]
            else:
                o = sub[np.arange(M)[:, None, None], OC[C]]
                part = BC[C] + (o * MO[C]).sum(axis=-1)
            mc = MC[C]
            ids_old = part + sub[np.arange(M), C][:, None] * mc
            ids_new = part + V[:, None] * mc
            self.work += 2 * M * Qc * self.lookup_units
            score = (cov[ids_new] == 0).sum(axis=1) - (cov[ids_old] == 1).sum(axis=1)
            if rng.random() < 0.01:
                i = int(rng.integers(M))
            else:
                top = np.flatnonzero(score == score.max())
                i = int(top[rng.integers(len(top))])
            r, c = int(R[i]), int(C[i])
            cov[ids_old[i]] -= 1
            cov[ids_new[i]] += 1
            A[r, c] = V[i]
            tabu[r, c] = step + tenure
        return best

    def _random_cover(self, A, cov, u):
        """No single-entry move covers tuple u: overwrite its t entries in a random row."""
        ix, m, rng = self.ix, self.m, self.rng
        tc, tv = ix.tcols[u], ix.tvals[u]
        for r in rng.permutation(len(A)).tolist():
            row = A[r].copy()
            row[tc] = tv
            if m.row_ok(row.tolist()):
                old = ix.row_ids(A[r : r + 1])[0]
                new = ix.row_ids(row[None, :])[0]
                cov[old] -= 1
                cov[new] += 1
                A[r] = row
                self.work += 4 * len(old)
                return
        self.work += self.step_units  # nothing to do; the budget still ends the loop


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
    if model.k == 0:
        return [{}]
    if strength >= model.k:
        return [model.to_row(r) for r in _full_product(model)]
    s = _Search(model, strength, seed)
    A, cov = s.greedy()
    if time_budget_s > 0 and len(A) > s.lower_bound():
        A = s.shrink(A, cov, s.work + float(time_budget_s) * _UNITS_PER_SECOND)
    rows = sorted(tuple(int(x) for x in r) for r in A)
    return [model.to_row(r) for r in rows]


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
    k = model.k
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
