"""What a DataLoader worker that starts a fresh interpreter (spawn, forkserver) spends importing, told by
the worker itself (issue 50: why a slow cell is slow, in the program's own terms).

A spawned worker re-imports the program's main module (as `__mp_main__`) and with it torch and the app's
libraries, before its loop can make a batch; a forked one imports nothing. The worker's outermost imports
(an import not made while another is running: `torch`, `pytorch_lightning`, `hydra`, not the `numpy` that
torch imports) are timed, and the worker appends one line to `<cell dir>/.loader_workers.jsonl` when it ends
(multiprocessing's own exit, which a worker runs; atexit it does not):
`{"pid": P, "started": T, "imports": {"torch": 1.9, ...}}` (seconds; `started`: the interpreter's start,
epoch seconds). The cell's main process reads the file at its end (`read`) and folds it into its loader
figures (loader_clock.py).

Observe only: the timing wraps the loader of an outermost import (importhook.py's finder: nothing of ours is
on the stack after the import returns) and writes one short line; nothing is caught or changed.
"""

from __future__ import annotations

import json
import os
import time

FILE_NAME = ".loader_workers.jsonl"
MIN_S = 0.005  # an import quicker than this is not worth a word


def _started() -> float:
    """When this interpreter started (epoch seconds), from /proc's start tick; now where it is unreadable."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
        return time.time() - max(0.0, age)
    except (OSError, ValueError, IndexError, AttributeError):
        return time.time()


class Imports:
    """The outermost imports of this process, as they end: name -> seconds."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.started = _started()

    def __call__(self, name: str, seconds: float) -> None:
        if seconds >= MIN_S:
            self.seconds[name] = round(self.seconds.get(name, 0.0) + seconds, 3)

    def write(self) -> None:
        cell_dir = os.environ.get("CRASHMATRIX_CELL_DIR")
        if not cell_dir:
            return
        line = json.dumps({"pid": os.getpid(), "started": round(self.started, 3), "imports": self.seconds})
        try:  # one short write with O_APPEND: the workers' lines do not interleave
            fd = os.open(os.path.join(cell_dir, FILE_NAME), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, (line + "\n").encode())
            finally:
                os.close(fd)
        except OSError:
            pass  # a full disk: the finding says less, the program goes on


def install(importhook) -> None:
    """Time this worker's outermost imports; write them when multiprocessing's exit runs its finalizers."""
    imports = Imports()
    importhook.time_outermost(imports)

    def finalizers(util) -> None:
        util.Finalize(None, imports.write, exitpriority=90)

    importhook.after_import("multiprocessing.util", finalizers, lambda module, error: None)


def read(cell_dir: str | None) -> dict[int, dict]:
    """pid -> the worker's line, from the cell's file; {} where there is none."""
    if not cell_dir:
        return {}
    out = {}
    try:
        with open(os.path.join(cell_dir, FILE_NAME), encoding="utf-8") as f:
            for line in f:
                try:
                    data = json.loads(line)
                    out[int(data["pid"])] = data
                except (ValueError, KeyError, TypeError):
                    continue  # a line cut by a worker's death
    except OSError:
        return {}
    return out
