"""How each rank of a distributed cell ended, and which failed first.

The records are the ones each Slurm task writes (incell/slurm_task.py: `ranks/rank<R>.json`): the
rank, its node, its Slurm job and step, when it ended (time.time()), its return code (negative: the
signal) and the signal's name. The verdict is the failure that came first in time; the ranks ended
after it (by srun's --kill-on-bad-exit, or failing in reaction) are consequences. A rank without an
end was killed with its task (SIGKILL reaches this wrapper too) and is never the cause.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class RankEnd:
    """One rank's end as the verdict needs it: returncode as Popen gives it (negative: the signal)."""

    rank: int
    returncode: int
    ended_at: float
    node: str
    stdout_path: str
    stderr_path: str


def unlabelled(text: str, rank: int) -> str:
    """A rank's own output without torch's `[rank0]: ` line labels (TORCH_SHOW_CPP_STACKTRACES and
    torch.distributed's logging add them), which would hide the telling line from classify."""
    return re.sub(rf"(?m)^\[rank{rank}\]: ?", "", text)


def read(ranks_dir: str) -> list[dict]:
    """Every rank's record, in rank order; a record being rewritten or unreadable is left out."""
    records = []
    try:
        names = os.listdir(ranks_dir)
    except OSError:
        return []
    for name in names:
        if not (name.startswith("rank") and name.endswith(".json")):
            continue
        try:
            with open(os.path.join(ranks_dir, name), encoding="utf-8") as f:
                records.append(json.load(f))
        except (OSError, ValueError):
            continue
    return sorted(records, key=lambda r: r.get("rank", 0))


def first_failure(records: list[dict], log_of) -> RankEnd | None:
    """The rank that failed first in time (log_of(rank, "stderr") its log), or None when none failed."""
    failed = [r for r in records if "ended_at" in r and r.get("returncode", 0) != 0]
    if not failed:
        return None
    first = min(failed, key=lambda r: (r["ended_at"], r["rank"]))
    return RankEnd(
        rank=int(first["rank"]),
        returncode=int(first["returncode"]),
        ended_at=float(first["ended_at"]),
        node=str(first.get("node", "")),
        stdout_path=log_of(first["rank"], "stdout"),
        stderr_path=log_of(first["rank"], "stderr"),
    )
