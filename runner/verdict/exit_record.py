"""`where` for a cell's main process that ended itself without a word (pure; never imports torch).

incell/last_exit.py records the stack of the main process's `sys.exit(N)`, `os._exit(N)` and signals sent to
itself, as a traceback's text ending in `SystemExit: 3`, `os._exit: 3` or `signal: SIGKILL`. It is the place
only where the record's end is the one the process met: the same exit code (not 0), or the signal it died
by. A SystemExit the program caught, then ended otherwise, is not its end.
"""

from __future__ import annotations

import os
import re

from crashmatrix.incell.last_exit import PREFIX
from crashmatrix.incell.stackdump import dump_dir
from crashmatrix.verdict.exception_place import exception_place

_END = re.compile(r"^(?:SystemExit|os\._exit): (?P<code>-?\d+)$|^signal: (?P<signal>\w+)$")


def _read(cell_dir: str, pid: int) -> tuple[str, re.Match | None]:
    try:
        with open(os.path.join(dump_dir(cell_dir), f"{PREFIX}{pid}.txt"), encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return "", None
    return text, _END.match(text.rstrip("\n").rsplit("\n", 1)[-1])


def _met(end: re.Match | None, exit_code: int | None, signal: str) -> bool:
    """Whether the recorded end is the one the process met: the signal it died by, else its non-zero exit code."""
    if end is None:
        return False
    if signal:
        return end["signal"] == signal
    return end["code"] is not None and exit_code not in (None, 0) and int(end["code"]) == exit_code


def killed_itself(cell_dir: str, pid: int, signal: str) -> bool:
    """Whether pid's last recorded end is the signal it died by, sent by itself (Lightning's child observer
    SIGKILLs its own process once a rank it started has died)."""
    return bool(signal) and _met(_read(cell_dir, pid)[1], None, signal)


def place(cell_dir: str, pid: int, exit_code: int | None, signal: str) -> str:
    """The recorded place of pid's own end where it matches exit_code, or signal where it died by one; else ""."""
    text, end = _read(cell_dir, pid)
    return exception_place(text) if _met(end, exit_code, signal) else ""
