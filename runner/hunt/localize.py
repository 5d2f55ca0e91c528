"""Which conjunction of a failing cell's values makes it fail: a posterior over the suspects, and the next test.

A failure of kind K in cell F (the focus) means some conjunction of F's values, of at
most `order` of them, fails at some rate where it holds (the empty conjunction: the
program itself), or that the failure was background noise. Each suspect h is weighed
by the runs of the cells that hold it:

- a failure of K there: rate r; a clean run there: 1 - r (the rate is unknown: a
  mixture of "every time" and a grid of flaky rates, so one clean run rules out a
  deterministic cause but only weakens a flaky one);
- a failure of K that no named cause explains, where h does not hold: it must be noise
  (NOISE): the suspect does not explain it;
- a failure of another kind: nothing (one failure can hide another).

The next test is whichever cell is expected to tell most (the expected drop in entropy of
the posterior): F itself, F with one or two values changed, or a cell holding a leading
suspect and as little else of F as it can. A clean run of F changed on axis i weakens
every suspect without i; a failure there rules out every suspect with it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from crashmatrix.hunt.model import Cell, Cond, Evidence, Kind, contains

# The rate of a suspect: "every time" with DETERMINISTIC_PRIOR, else one of these, equally likely.
# None below 3 in 10: each rate the grid allows keeps a rival alive longer (a pair inside a flaky
# triple is weakened by only 1 - r per clean run without the third value, and a lone failure is called
# noise after 17 clean runs of its cell at this floor, 25 at 0.2); a cause rarer than the floor is
# still named where its failures recur, with its rate read as the floor's.
FLAKY_RATES = (0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3)
DETERMINISTIC_PRIOR = 0.5
# The chance that a run fails this way whatever its configuration, and the prior that a failure is just that.
NOISE = 0.01
NOISE_PRIOR = 0.1

_RATES = (1.0,) + FLAKY_RATES
_LOG_PRIOR_RATES = tuple(
    math.log(DETERMINISTIC_PRIOR) if r == 1.0 else math.log((1 - DETERMINISTIC_PRIOR) / len(FLAKY_RATES))
    for r in _RATES
)

_NOISE_ENTROPY = -(NOISE * math.log2(NOISE) + (1 - NOISE) * math.log2(1 - NOISE))
NOISE_SUSPECT = None  # the suspect "background noise", beside the conjunctions


def still_suspect(clean: int) -> float:
    """The chance that a cause, its rate drawn from this module's prior, runs clean `clean` times in a row.

    A conjunction's weight as a suspect beside an untested one's 1: a deterministic cause is out after
    one clean run, a flaky one fades by (1 - r) a run (0.20 after one, 0.10 after two).
    """
    return sum(math.exp(lp) * (1 - r) ** clean for lp, r in zip(_LOG_PRIOR_RATES, _RATES))


def _log_pow(x: float, n: int) -> float:
    if n == 0:
        return 0.0
    return n * math.log(x) if x > 0 else -math.inf


def _logsumexp(xs: Sequence[float]) -> float:
    top = max(xs)
    if top == -math.inf:
        return top
    return top + math.log(sum(math.exp(x - top) for x in xs))


def _told_apart(space, a: Cond, b: Cond) -> bool:
    """Whether some allowed cell holds one of the two conjunctions and not the other."""
    return any(x and space.complete(y, [x]) is not None for x, y in ((a, b), (b, a)))


def _other(values: Sequence[str], value: str) -> str:
    """The value after `value` in the axis's list (cyclic): another one, the same for the same evidence."""
    return values[(list(values).index(value) + 1) % len(values)]


def _entropy(p: float) -> float:
    if p <= 0.0 or p >= 1.0:
        return 0.0
    return -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


@dataclass(frozen=True)
class Suspect:
    cond: Cond | None  # None: background noise
    posterior: float
    rate: float  # expected rate of K where cond holds (posterior mean); NOISE for noise


class Localization:
    """The posterior over the suspects for one failure (kind, focus cell), from all evidence so far."""

    def __init__(self, evidence: Evidence, kind: Kind, focus: Cell, explained: tuple[Cond, ...] = ()):
        self.evidence, self.kind, self.focus = evidence, kind, focus
        space = evidence.space
        self.conds = space.conditions(focus, least=0)
        fails, passes = evidence.fails[kind], evidence.passes
        # Failures of this kind that no named cause explains: the focus is the first of them, so these
        # came with or after it (its tests, mostly), and a suspect must explain them or call them noise.
        open_fails = [
            r.cell for r in evidence.runs if r.kind == kind and not any(contains(r.cell, c) for c in explained)
        ]
        log_post, rates = [], []
        for cond in self.conds:
            f, p = fails[cond], passes[cond]
            unexplained = sum(1 for cell in open_fails if not contains(cell, cond))
            terms = [lp + _log_pow(r, f) + _log_pow(1 - r, p) for lp, r in zip(_LOG_PRIOR_RATES, _RATES)]
            log_like = _logsumexp(terms)
            log_post.append(log_like + unexplained * math.log(NOISE) + math.log((1 - NOISE_PRIOR) / len(self.conds)))
            rates.append(self._mean_rate(terms, log_like))
        log_post.append(len(open_fails) * math.log(NOISE) + math.log(NOISE_PRIOR))
        rates.append(NOISE)
        self._rows: list | None = None
        total = _logsumexp(log_post)
        self.suspects = [
            Suspect(cond, math.exp(lp - total), rate)
            for cond, lp, rate in zip([*self.conds, NOISE_SUSPECT], log_post, rates)
        ]

    @staticmethod
    def _mean_rate(terms: list[float], log_like: float) -> float:
        if log_like == -math.inf:
            return 0.0
        return sum(r * math.exp(t - log_like) for r, t in zip(_RATES, terms))

    def best(self) -> Suspect:
        """The most probable suspect; among equals the shortest conjunction, then the first."""
        return max(self.suspects, key=lambda s: (s.posterior, -len(s.cond or ())))

    def twins(self, best: Suspect) -> list[Suspect]:
        """Suspects that no allowed cell tells from `best`: each holds in exactly the cells it holds in."""
        if best.cond is None:
            return []
        space = self.evidence.space
        return [
            s
            for s in self.suspects
            if s is not best and s.cond is not None and s.posterior > 1e-6 and not _told_apart(space, best.cond, s.cond)
        ]

    def rivals(self, share: float) -> list[Suspect]:
        """Suspects other than the best with at least `share` of the posterior."""
        top = self.best()
        return [s for s in self.suspects if s is not top and s.posterior >= share]

    def _table(self) -> list[tuple[float, int | None, float, float]]:
        """(posterior, axes mask or None for noise, rate, entropy of rate) of the suspects that still count."""
        if self._rows is None:
            self._rows = [
                (s.posterior, None if s.cond is None else sum(1 << i for i, _ in s.cond), s.rate, _entropy(s.rate))
                for s in self.suspects
                if s.posterior > 1e-12
            ]
        return self._rows

    def information(self, cell: Cell) -> float:
        """Expected information (bits) one run of `cell` gives about which suspect it is.

        A suspect holds in `cell` when the cell agrees with the focus on the suspect's axes. A run
        that fails another way tells nothing about this kind: a cell whose runs so far did so is
        expected to again (the share of them, counted with one run that did not).
        """
        agree = sum(1 << i for i, (a, b) in enumerate(zip(cell, self.focus)) if a == b)
        mean = spread = 0.0
        for posterior, mask, rate, rate_entropy in self._table():
            if mask is not None and mask & ~agree == 0:
                mean += posterior * rate
                spread += posterior * rate_entropy
            else:
                mean += posterior * NOISE
                spread += posterior * _NOISE_ENTROPY
        seen = self.evidence.by_cell.get(cell, [])
        masked = sum(1 for k in seen if k is not None and k != self.kind)
        return (_entropy(mean) - spread) * (len(seen) - masked + 1) / (len(seen) + 1)

    def tests(self, allowed: Callable[[Cell], bool]) -> list[tuple[float, int, Cell]]:
        """(information, values changed, cell): the focus itself and its changes in one or two values.

        Two values change where one is not enough: where changing one value lets another kind's failure
        in (it would hide this kind), changing a second one as well keeps it out.
        """
        space = self.evidence.space
        out = []
        seen = set()
        for cell, changed in self._around(space):
            if cell not in seen and allowed(cell):
                seen.add(cell)
                out.append((self.information(cell), changed, cell))
        return out

    def _around(self, space):
        yield from self._near(space)
        yield from self._far(space)

    def _far(self, space, leaders: int = 3):
        """For each leading suspect: a cell holding it and as little else of the focus as can be, and that
        cell with one of the suspect's values changed (does it need every value?)."""
        ranked = sorted((s for s in self.suspects if s.cond), key=lambda s: (-s.posterior, len(s.cond or ())))[:leaders]
        for suspect in ranked:
            held = dict(suspect.cond or ())
            far = [held.get(i) or _other(values, self.focus[i]) for i, values in enumerate(space.values)]
            yield tuple(far), len(space.values) - len(held)
            for i in held:
                if len(space.values[i]) > 1:
                    cell = list(far)
                    cell[i] = _other(space.values[i], self.focus[i])
                    yield tuple(cell), len(space.values) - len(held) + 1

    def _near(self, space):
        yield self.focus, 0
        others = [(i, v) for i, values in enumerate(space.values) for v in values if v != self.focus[i]]
        for i, v in others:
            yield self.focus[:i] + (v,) + self.focus[i + 1 :], 1
        for (i, v), (j, w) in itertools.combinations(others, 2):
            if i != j:
                cell = list(self.focus)
                cell[i], cell[j] = v, w
                yield tuple(cell), 2
