"""Short labels for an axis's values that still tell them apart (report.html's chart rows).

Cutting every value at the same width makes two data paths that differ only at their end read
alike (`/very/long/path/data-base` and `/very/long/path/data-bad` both become `/very/long/pa`).
What tells an axis's values apart is what they do not share: a prefix they all share is elided
(`…/data-base`, `…/data-bad`), back to a separator so that a path keeps its last name whole, then
a shared suffix, and only what is still too long loses its middle. Distinct values always get
distinct labels; the full value belongs in the chart's tooltip.
"""

from __future__ import annotations

import os

ELLIPSIS = "…"
SEPARATORS = "/\\._-=:, "
PATH_SEPARATORS = "/\\"


def _cut_after_prefix(values: list[str], width: int) -> int:
    """How many leading characters of every value to elide: the shared prefix up to its last path separator
    where that leaves every value within width, else the shortest cut before a separator that does; where
    none does, the last path separator (a shared suffix may go next), else the longest cut."""
    common = os.path.commonprefix(values)
    cuts = [i for i, ch in enumerate(common) if ch in SEPARATORS and i >= 2]
    if len(common) >= 2 and all(len(v) > len(common) for v in values):
        cuts.append(len(common))  # the raw shared prefix, where no value would be left empty
    if not cuts:
        return 0
    longest = max(map(len, values))
    on_paths = [i for i in cuts if i < len(common) and common[i] in PATH_SEPARATORS]
    fitting = [i for i in cuts if longest - i + 1 <= width]
    if on_paths and (longest - on_paths[-1] + 1 <= width or not fitting):
        return on_paths[-1]  # a path keeps its last shared separator and the name after it whole
    return (fitting or [max(cuts)])[0]


def _elide_prefix(values: list[str], width: int) -> list[str]:
    cut = _cut_after_prefix(values, width)
    return [ELLIPSIS + v[cut:] for v in values] if cut else list(values)


def _elide_suffix(values: list[str], width: int) -> list[str]:
    return [v[::-1] for v in _elide_prefix([v[::-1] for v in values], width)]


def _elide_middle(value: str, width: int) -> str:
    if len(value) <= width:
        return value
    head = (width - 1) // 2
    return value[:head] + ELLIPSIS + value[len(value) - (width - 1 - head) :]


def tell_apart(values: list[str], width: int) -> list[str]:
    """Labels of at most `width` characters where that keeps them distinct, in the order of values
    (distinct strings); a value that fits is shown whole while all of them fit."""
    width = max(width, 5)
    if max(map(len, values), default=0) <= width:
        return list(values)
    if len(values) == 1:
        return [_elide_middle(values[0], width)]
    shown = _elide_prefix(values, width)
    if max(map(len, shown)) > width:
        shown = _elide_suffix(shown, width)
    cut = [_elide_middle(v, width) for v in shown]
    return cut if len(set(cut)) == len(cut) else shown  # distinct before the middle cut; never two alike


def widths_for(longest: list[int], total: int, gap: int) -> list[int]:
    """Each part's width when several parts share one label of `total` characters, `gap` between two:
    a part that fits an even share keeps its length, the others share what is left evenly."""
    left = total - gap * (len(longest) - 1)
    widths = list(longest)
    open_parts = list(range(len(longest)))
    while open_parts:
        share = left // len(open_parts)
        fitting = [i for i in open_parts if longest[i] <= share]
        if not fitting:
            for i in open_parts:
                widths[i] = share
            break
        for i in fitting:
            left -= longest[i]
        open_parts = [i for i in open_parts if i not in fitting]
    return widths
