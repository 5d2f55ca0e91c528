"""What the engine keeps about a running cell for the verdict's last word, taken at launch.

Read when a cell starts (the memory cgroup's OOM count, to compare at its end), so it stays light:
the rest of forensics loads when a cell ends, not before the first one starts.
"""

from __future__ import annotations

from dataclasses import dataclass

# --- the cell's memory cgroup (read only) ----------------------------------------


def cgroup_oom_counter(pid: int) -> tuple[str, int] | None:
    """(file, oom_kill count) of the memory cgroup pid is in: cgroup v2 memory.events, or v1 memory.oom_control."""
    try:
        with open(f"/proc/{pid}/cgroup") as f:
            entries = [line.rstrip("\n").split(":", 2) for line in f]
    except OSError:
        return None
    candidates = []
    for _hid, controllers, path in (e for e in entries if len(e) == 3):
        if controllers == "":
            candidates.append(f"/sys/fs/cgroup{path.rstrip('/')}/memory.events")
        elif "memory" in controllers.split(","):
            candidates.append(f"/sys/fs/cgroup/memory{path.rstrip('/')}/memory.oom_control")
    for path in candidates:
        count = oom_kill_count(path)
        if count is not None:
            return path, count
    return None


def oom_kill_count(path: str) -> int | None:
    try:
        with open(path) as f:
            for line in f:
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
    except (OSError, ValueError):
        pass
    return None


@dataclass
class Evidence:
    """What the engine kept about one run for the verdict's last word."""

    pid: int
    started: float  # time.monotonic() at launch
    stderr: str = ""
    hang: tuple = ("", "")  # collect()'s answer when the run timed out
    # stderr.log's size as the timeout's kill began: what follows is the program's answer to our SIGTERM
    # (torchrun's shutdown, a rank's `DataLoader worker ... killed by signal: Terminated`), not the hang's
    stderr_at_kill: int | None = None
    oom_counter: tuple | None = None  # cgroup_oom_counter() at launch
    cell_dir: str = ""  # where its processes wrote their stack dumps (incell/stackdump.py); "" for a log alone
