"""Texts shared by every report: a shortened line, the words that name a kind of failure, a table."""

from __future__ import annotations

import os


def shorten(text: str, width: int = 90) -> str:
    """One line of at most width characters, … where cut."""
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def kind_label(outcome: str, signal: str, signature: str, width: int = 60) -> str:
    """'crash SIGSEGV', 'fail fd_exhaustion': the words of a kind of failure, without the empty ones and
    without a signature that only restates the outcome (killed_by_signal, hang)."""
    from crashmatrix.signature import RESTATES_OUTCOME

    if signature in RESTATES_OUTCOME:
        signature = ""
    return " ".join(part for part in (outcome, signal, shorten(signature, width) if signature else "") if part)


def kind_text(kind: tuple, width: int = 60) -> str:
    """The words of a kind (outcome, signal, signature) as one label."""
    outcome, signal, signature = kind
    return kind_label(outcome, signal, signature, width=width)


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
