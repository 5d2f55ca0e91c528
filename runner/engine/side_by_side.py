"""Cells that cannot run side by side: programs that bind one fixed port.

The DDP tutorial sets `MASTER_PORT=12355` inside the program, and a command may hold
`torchrun --master_port=29500`: two such cells at once share the port. The second to bind it fails
(`EADDRINUSE`), or its ranks join the first cell's store and both go wrong. That failure is
crashmatrix's --jobs, not the cell's values, and recorded as the cell's it would send the user after
an axis that does not matter. So a run that failed while another ran beside it, with `address already
in use` in its output, runs again alone, and so does every run that failed beside it; from then on
that matrix's cells run one at a time. A run that fails alone too is recorded as it failed: then the
port is taken by something else, or by the program itself.

Process-wide: bisect's threads each run their cells through an engine of their own.
"""

from __future__ import annotations

import glob
import os
import re
import threading

from crashmatrix.outcome import Outcome, counts_as_failing
from crashmatrix.rundir.cell_logs import read_ends

# What a run that lost its port says: torch's TCPStore (2.2 on: `port: 12355, ... name: EADDRINUSE`;
# before: `failed to bind to [::]:29500 (errno: 98 - Address already in use)`), and Python's own socket.
_LOST_PORT = re.compile(
    r"port: (?P<port>\d+)\b[^\n]*\bEADDRINUSE\b"
    r"|:(?P<bound>\d+) \(errno: 98 - Address already in use\)"
    r"|\[Errno 98\] Address already in use"
)
FIRST_TRY_LOG = "first-try.log"  # in the cell directory of a run again alone: its try beside another

_cond = threading.Condition()
_beside: dict[int, set[int]] = {}  # a live run -> every run that was live beside it at any time
_owner: dict[int, object] = {}  # a live run -> the engine that started it
_suspect: set[int] = set()  # live runs that ran beside a run that lost its port
_alone: set[object] = set()  # the matrices whose cells now run one at a time
_first_tries: dict[str, str] = {}  # cell directory -> the stderr of its try beside another, until it runs again


def lost_port(text: str) -> tuple[str, int | None] | None:
    """(the line, the port where it says) of a run's output that lost a port to another process; None."""
    found = _LOST_PORT.search(text)
    if found is None:
        return None
    start = text.rfind("\n", 0, found.start()) + 1
    end = text.find("\n", found.end())
    port = found.group("port") or found.group("bound")
    return text[start : end if end >= 0 else len(text)].strip(), int(port) if port else None


def began(key: int, owner: object) -> None:
    """A run started (key: its process id; owner: the engine that started it)."""
    with _cond:
        for others in _beside.values():
            others.add(key)
        _beside[key] = set(_beside)
        _owner[key] = owner


def ended(key: int, matrix: object, failed: bool, stderr: str, cell_dir: str) -> str | None:
    """A run ended: why it must run again alone (it lost a port, or failed beside a run that did), else None.
    matrix: what identifies the run's matrix, whose cells then run one at a time. stderr: as the verdict read it."""
    with _cond:
        beside = _beside.pop(key, set())
        _owner.pop(key, None)
        suspect = key in _suspect
        _suspect.discard(key)
        _cond.notify_all()
    if not failed or not beside:
        return None
    lost = lost_port(stderr)
    with _cond:
        if lost is not None:
            _alone.add(matrix)
            _suspect.update(beside & set(_beside))
            why = f"lost port {lost[1]}" if lost[1] is not None else "lost its port (address already in use)"
            why += " to a cell running beside it"
        elif suspect:
            why = "failed beside a cell that lost its port"
        else:
            return None
        _first_tries[cell_dir] = stderr
    return why


def starting(cell_dir: str) -> None:
    """A run starts in cell_dir (made afresh): where it runs again alone, its first try goes beside it."""
    with _cond:
        first_try = _first_tries.pop(cell_dir, None)
    if first_try is None:
        return
    try:
        with open(os.path.join(cell_dir, FIRST_TRY_LOG), "w", encoding="utf-8") as f:
            f.write(first_try)
    except OSError:
        pass  # a word on the run, not the run: the row is the run alone's either way


def forget(owner: object) -> None:
    """The runs of owner whose end was not judged (a stop, an unwritable run directory ended them)."""
    with _cond:
        for key in [k for k, o in _owner.items() if o is owner]:
            _beside.pop(key, None)
            _owner.pop(key, None)
            _suspect.discard(key)
        _cond.notify_all()


def may_start(matrix: object) -> bool:
    """Whether a run of `matrix` may start now: always, unless its cells run one at a time and one runs.
    matrix: (name, command), of_matrix's."""
    with _cond:
        return matrix not in _alone or not _beside


def of_matrix(matrix) -> tuple:
    """What runs one at a time once a cell lost its port: this matrix's cells."""
    return (matrix.name, tuple(matrix.command or ()))


def wait_turn(timeout: float) -> None:
    """Until a run ends (or timeout): for an engine with nothing running, waiting on another's."""
    with _cond:
        _cond.wait(timeout)


def again_alone(run_dir: str, rows: list[dict]) -> str:
    """summary.md's word on the runs of run_dir that ran again alone, by how they then ended; "" where none did."""
    tries = sorted(glob.glob(os.path.join(glob.escape(run_dir), "cells", "*", FIRST_TRY_LOG)))
    if not tries:
        return ""
    ports = sorted({found[1] for p in tries if (found := lost_port(read_ends(p))) and found[1] is not None})
    port = f"port {', '.join(map(str, ports))}" if ports else "its port"
    outcome = {r.get("log_dir"): str(r.get("outcome", "")) for r in rows}
    cells = [os.path.relpath(os.path.dirname(p), run_dir) for p in tries]
    failed = [c for c in cells if counts_as_failing(outcome.get(c, Outcome.FAIL.value))]  # no row: not cleared
    cleared = [c for c in cells if c not in failed]
    said = []
    if cleared:
        said.append(
            f"{_runs(cleared)} failed only beside another cell: the program binds {port}, which two "
            "cells at once cannot share, so the matrix's cells ran one at a time from then on."
        )
    # alone, a run may lose the port again (held outside), or fail for a reason of its own: its row
    again = [c for c in failed if lost_port(read_ends(os.path.join(run_dir, c, "stderr.log")))]
    if again:
        said.append(
            f"{_runs(again)} failed beside another cell and alone too: {port} is held by something else "
            "here, or the program binds it twice."
        )
    if len(again) < len(failed):
        said.append(
            f"{_runs([c for c in failed if c not in again])} failed beside another cell, then alone for a reason "
            "of their own, not the port: their rows are those runs alone."
        )
    return " ".join(said) + f" Each first try is its cell's {FIRST_TRY_LOG}."


def _runs(cells: list[str]) -> str:
    named = ", ".join(cells[:3]) + (f" and {len(cells) - 3} more" if len(cells) > 3 else "")
    return f"{len(cells)} runs ({named})" if len(cells) > 1 else f"1 run ({named})"
