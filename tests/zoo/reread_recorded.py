"""A recorded held-out run read again by today's rules, where the machine it ran on is not lent again (a GPU set's
H200 run): each row's verdict and `where` made anew from what the cell kept, then resolved, ready for
score_reported.py.

    python tests/zoo/reread_recorded.py RECORDED_RUN OUT_DIR

What a cell kept is what the engine read at its end: stderr.log, a cuda_error's synchronous rerun under sync/
(verdict/sync_rerun.py's findings), a timeout's stacks.txt (the main process's stacks: its place as
stacks.main_place names it). What only the live machine had (its kernel log, torch's native backtrace of a
death by signal) is not kept: a death by signal keeps the row's recorded place, signed again. A distributed
job's rank reports (rank_report) are the recorded row's. Exit status 0, or 2 on bad input.
"""

from __future__ import annotations

import csv
import os
import shutil
import signal
import subprocess
import sys

from crashmatrix.outcome import Outcome
from crashmatrix.verdict import sync_rerun
from crashmatrix.verdict.classify import classify, signed_by_place
from crashmatrix.verdict.exception_place import exception_place, failing_output
from crashmatrix.verdict.parsed import read_output
from crashmatrix.verdict.signature import hang_signature
from crashmatrix.verdict.stacks import main_place, main_thread, parse_faulthandler, parse_pyspy


def _read(path: str) -> str:
    with open(path, errors="replace") as f:
        return f.read()


def _hang_place(cell: str) -> str:
    """The main process's place from a timeout's stacks.txt (faulthandler's section, else py-spy's), as the run
    names it."""
    main = _read(os.path.join(cell, "stacks.txt")).split("\n=== pid ")[0]
    dump = main.split("(faulthandler)\n", 1)[1].split("\n--- ")[0] if "(faulthandler)\n" in main else ""
    spy = main.split("--- py-spy dump\n", 1)[1].split("\n--- ")[0] if "--- py-spy dump\n" in main else ""
    place = main_place(main_thread(parse_faulthandler(dump) or parse_pyspy(spy), 0))
    return f"main {place}" if place else ""


def reread(cell: str, row: dict) -> dict:
    """The row today's rules give the recorded cell."""
    stderr = _read(os.path.join(cell, "stderr.log"))
    if row["outcome"] == Outcome.TIMEOUT.value:
        where = _hang_place(cell) or row["where"]
        return dict(row, where=where, signature=hang_signature(where))
    code = int(row["exit_code"]) if row["exit_code"] else -signal.Signals[row["signal"]].value
    verdict = classify(code, stderr=stderr)
    sync = os.path.join(cell, sync_rerun.SYNC_DIR)
    if os.path.isdir(sync) and verdict.outcome is Outcome.CUDA_ERROR:
        where = sync_rerun.findings(1, sync, verdict)
    elif verdict.signal or row["rank"]:  # the live machine's evidence (kernel log, native backtrace, ranks)
        verdict, where = classify(code, stderr=stderr), row["where"]
        if row["rank"]:
            return row
    else:
        where = exception_place(failing_output(stderr), oom=verdict.outcome is Outcome.OOM, error=verdict.error)
    verdict = sync_rerun.signed(signed_by_place(verdict, where), where, sync)
    told = {"outcome": verdict.outcome.value, "signal": verdict.signal, "signature": verdict.signature}
    return dict(
        row, **told, where=where, error=read_output(verdict.error).text.splitlines()[0] if verdict.error else ""
    )


def main(argv: list[str]) -> int:
    if len(argv) != 2 or not os.path.isfile(os.path.join(argv[0], "results.csv")):
        print("usage: reread_recorded.py RECORDED_RUN OUT_DIR (a run directory with results.csv)", file=sys.stderr)
        return 2
    recorded, out = argv
    shutil.copytree(recorded, out, ignore=shutil.ignore_patterns("repro", "resolution.*"))
    with open(os.path.join(out, "results.csv"), newline="") as f:
        reader = csv.DictReader(f)
        fields, rows = list(reader.fieldnames or ()), list(reader)
    rows = [reread(os.path.join(out, r["log_dir"]), r) for r in rows]
    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    done = subprocess.run([sys.executable, "-m", "crashmatrix", "resolve", out], capture_output=True, text=True)
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
