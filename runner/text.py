"""Texts shared by every report: a shortened line, a table, a path as the user pastes it back."""

from __future__ import annotations

import os


def shorten(text: str, width: int = 90) -> str:
    """One line of at most width characters, … where cut."""
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"


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
