"""Inside each process of a distributed cell (under inject): which pid is which rank, and when it ended.

Observe only: one small file per rank, `<cell dir>/.ranks/<pid>.json` ({"pid", "rank", "ended"}), written
when the rank is known from its environment at start (torchrun, Lightning's children and Slurm tasks set
RANK or LOCAL_RANK) and again at exit (atexit: the rank the process group gave it, else its environment,
and the time). Nothing is caught, printed or changed: no excepthook, no signal handler, the exit status the
program's own. A rank that dies by a signal writes no `ended`: the launcher's report or the fatal-signal
line in stderr tells it (crashmatrix.verdict.ranks reads both, with these files).
"""

from __future__ import annotations

import json
import os
import sys
import time

from .atomic import write_text_atomic

DIR_NAME = ".ranks"


def records_dir(cell_dir: str) -> str:
    return os.path.join(cell_dir, DIR_NAME)


def install() -> None:
    """Record this process's rank now where its environment says it, and at exit where it is a rank then."""
    cell_dir = os.environ.get("CRASHMATRIX_CELL_DIR")
    if not cell_dir:
        return
    pid = os.getpid()
    rank = _environment_rank()
    if rank is not None:
        _write(cell_dir, {"pid": pid, "rank": rank})

    import atexit

    def at_exit() -> None:
        if os.getpid() != pid:  # a forked child inherits the handler
            return
        try:
            rank = _process_rank()
            if rank is not None and not _in_loader_worker():
                _write(cell_dir, {"pid": pid, "rank": rank, "ended": time.time()})
        except Exception:  # the program's exit is its own: a record that cannot be written is left out
            pass

    atexit.register(at_exit)


def _environment_rank() -> int | None:
    for name in ("RANK", "LOCAL_RANK"):  # Lightning's ddp children have LOCAL_RANK only (one node)
        value = os.environ.get(name, "")
        if value.isdigit():
            return int(value)
    return None


def _process_rank() -> int | None:
    """The rank the default process group gave this process (mp.spawn's ranks have no RANK), else its
    environment's; torch.distributed only where the program imported it."""
    dist = sys.modules.get("torch.distributed")
    try:
        if dist is not None and dist.is_available() and dist.is_initialized():
            return int(dist.get_rank())
    except Exception:
        pass
    return _environment_rank()


def _in_loader_worker() -> bool:
    """A DataLoader worker inherits its rank's environment; it is no rank."""
    data = sys.modules.get("torch.utils.data")
    try:
        return data is not None and data.get_worker_info() is not None
    except Exception:
        return False


def _write(cell_dir: str, record: dict) -> None:
    folder = records_dir(cell_dir)
    os.makedirs(folder, exist_ok=True)
    write_text_atomic(os.path.join(folder, f"{record['pid']}.json"), json.dumps(record), durable=False)


def read(cell_dir: str) -> list[dict]:
    """The records the cell's ranks left (controller side, at the cell's end)."""
    folder = records_dir(cell_dir)
    found = []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    for name in names:
        if not name.endswith(".json") or name.startswith("."):
            continue
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                record = json.load(f)
        except (OSError, ValueError):
            continue
        if isinstance(record, dict) and isinstance(record.get("pid"), int) and isinstance(record.get("rank"), int):
            found.append(record)
    return found
