"""The same 4 cells, one of them segfaulting, through Hydra's basic launcher, submitit's local executor
and crashmatrix, in one run: which cells report, whether the signal is named, and how long it takes.

    python bench/bench_anchors.py
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import tempfile
import textwrap
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HYDRA_APP = textwrap.dedent("""\
    import ctypes, hydra

    @hydra.main(version_base=None, config_path=None)
    def main(cfg):
        print("cell", cfg.i, "ran", flush=True)
        if cfg.mode == "segv":
            ctypes.string_at(0)

    if __name__ == "__main__":
        main()
""")


def run_hydra(tmp: str) -> str:
    app = os.path.join(tmp, "app.py")
    with open(app, "w") as f:
        f.write(HYDRA_APP.replace('if cfg.mode == "segv":', "if cfg.i == 1:"))
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, app, "-m", "+i=0,1,2,3", "+mode=x", "hydra.sweep.dir=" + os.path.join(tmp, "mr")],
        cwd=tmp,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - t0
    ran = sorted(line.split()[1] for line in out.stdout.splitlines() if line.startswith("cell "))
    signal = "SIGSEGV" if "SIGSEGV" in out.stdout + out.stderr else "not named"
    return f"hydra basic launcher | exit {out.returncode} | cells that ran: {','.join(ran)} of 0,1,2,3 | signal: {signal} | {elapsed:.1f} s"


def _segv_cell(i: int) -> str:
    import ctypes

    if i == 1:
        ctypes.string_at(0)
    return f"cell {i} ok"


def run_submitit(tmp: str) -> str:
    import submitit

    ex = submitit.AutoExecutor(folder=os.path.join(tmp, "sub"), cluster="local")
    ex.update_parameters(timeout_min=5)
    t0 = time.perf_counter()
    jobs = ex.map_array(_segv_cell, range(4))
    reports = []
    crashed_at = None
    for job in jobs:
        try:
            reports.append(job.result())
        except Exception as e:  # what submitit says about the segfaulting job
            crashed_at = time.perf_counter() - t0
            first = str(e).strip().splitlines()
            reports.append(f"{type(e).__name__}: {' '.join(first[:2])[:110]}")
    elapsed = time.perf_counter() - t0
    named = "SIGSEGV" if any("SIGSEGV" in r or "signal 11" in r for r in reports) else "not named"
    return (
        f"submitit LocalExecutor | {sum(r.startswith('cell') for r in reports)} of 4 results | signal: {named} | "
        f"crash reported after {crashed_at:.1f} s | {elapsed:.1f} s\n    the crashed job: {reports[1]}"
    )


def run_crashmatrix(tmp: str) -> str:
    script = os.path.join(tmp, "cell.py")
    with open(script, "w") as f:
        f.write("import ctypes, sys\nif sys.argv[1] == 'i=1':\n    ctypes.string_at(0)\n")
    matrix = os.path.join(tmp, "m.yaml")
    with open(matrix, "w") as f:
        f.write(f"name: anchors\ncommand: [python, {script}]\naxes:\n  i: [0, 1, 2, 3]\n")
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "crashmatrix", "run", matrix, "--out", os.path.join(tmp, "cm")],
        cwd=tmp,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": HERE},
    )
    elapsed = time.perf_counter() - t0
    with open(os.path.join(tmp, "cm", "results.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    crashed = [r for r in rows if r["outcome"] != "pass"]
    return (
        f"crashmatrix | exit {out.returncode} | {len(rows)} of 4 rows | "
        f"cell i={crashed[0]['i']}: {crashed[0]['outcome']} {crashed[0]['signal']} | {elapsed:.1f} s "
        f"(1-2 s of it the torch fingerprint)"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        print(run_hydra(tmp))
        print(run_submitit(tmp))
        print(run_crashmatrix(tmp))


if __name__ == "__main__":
    main()
