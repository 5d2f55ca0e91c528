"""Reading what a finished cell run left: its stdout/stderr logs and the report.json it may have written."""

from __future__ import annotations

import json
import os

TAIL_BYTES = 256 * 1024
HEAD_BYTES = 64 * 1024


def read_ends(path: str, upto: int | None = None) -> str:
    """The head and the tail of a log ("" when unreadable): the telling line is near one end, and a
    flood must not be read whole. NUL bytes are dropped, bytes that are not UTF-8 replaced. upto: only
    the log's first `upto` bytes."""
    try:
        size = os.path.getsize(path) if upto is None else min(upto, os.path.getsize(path))
        with open(path, "rb") as f:
            if size <= HEAD_BYTES + TAIL_BYTES:
                # PyTorch ends its worker error lines with a NUL byte.
                return f.read(size).replace(b"\0", b"").decode("utf-8", errors="replace")
            head = f.read(HEAD_BYTES)
            f.seek(size - TAIL_BYTES)
            tail = f.read(TAIL_BYTES)
            data = head + b"\n[...]\n" + tail[tail.find(b"\n") + 1 :]
            return data.replace(b"\0", b"").decode("utf-8", errors="replace")
    except OSError:
        return ""


def read_report(path: str) -> dict | None:
    """The cell's report.json as a dict; None when it is missing, unreadable or not an object."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return data if isinstance(data, dict) else None
    except (OSError, ValueError):
        return None
