"""Texts shared by every report: a shortened line, a table, a path as the user pastes it back."""

from __future__ import annotations

import os


def shorten(text: str, width: int = 90) -> str:
    """One line of at most width characters, … where cut."""
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def shorten_apart(texts, width: int = 40) -> dict[str, str]:
    """Each text shortened to about width characters, yet no two alike: where two cut the same, each keeps
    its start and, after a …, the part from where it first differs from its nearest one; where even that
    does not tell them apart, the whole text. For error lines, whose start names the kind; an axis's
    values (paths) lose their shared start instead: crashmatrix.report.short_labels.tell_apart."""
    whole = [" ".join(str(t).split()) for t in dict.fromkeys(texts)]
    short = {t: shorten(t, width) for t in whole}
    cut_alike: dict[str, list[str]] = {}
    for t in whole:
        cut_alike.setdefault(short[t], []).append(t)
    for group in cut_alike.values():
        if len(group) > 1:
            for t in group:
                short[t] = _from_where_it_differs(t, [o for o in group if o != t], width)
    seen: dict[str, int] = {}
    for t in whole:
        seen[short[t]] = seen.get(short[t], 0) + 1
    return {t: (short[t] if seen[short[t]] == 1 else t) for t in whole}


def _from_where_it_differs(text: str, others: list[str], width: int) -> str:
    """'its start…the part that differs', about width long: the start names the kind, the rest tells it apart."""
    differs_at = max(len(os.path.commonprefix([text, o])) for o in others)
    head = max(8, width // 2)
    if differs_at <= head:
        return shorten(text, max(width, differs_at + width // 2))
    # from the start of the word where they differ (a few characters back at most), so the tail reads as one
    start = max(text.rfind(" ", 0, differs_at) + 1, differs_at - 12, head)
    return text[: head - 1] + "…" + shorten(text[start:], max(width - head, differs_at - start + 8))


def table(rows, headers, fmt: str, *, numparse: bool = True) -> str:
    """A tabulate table in md (pipe) or github form."""
    from tabulate import tabulate  # here: a run's first cell must not wait for it

    return tabulate(
        rows, headers=headers, tablefmt={"md": "pipe", "github": "github"}.get(fmt, fmt), disable_numparse=not numparse
    )


def shown_path(path: str) -> str:
    """A path as a user pastes it back: relative under the current directory, else absolute (never
    `../../../../tmp/run`)."""
    rel = os.path.relpath(path)
    return os.path.abspath(path) if rel == ".." or rel.startswith(".." + os.sep) else rel
