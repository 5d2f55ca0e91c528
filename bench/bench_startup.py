"""A 1-cell `crashmatrix run` against a bare launch of the same program, in one run.

Goals (issue 18): with the interpreter's answer kept (facts_cache), a 1-cell run
ends within 0.5 s of a bare launch of its program, and its cell starts within
0.3 s of the command. The cell writes time.time() as its first statement; the
bare launch, timed the same way, is subtracted from the cell's start (that is
the interpreter's own start). The first round runs with an empty cache (cold:
the run waits for torch's import in the fingerprint child); the others are warm.
Rounds alternate bare and crashmatrix so that load from elsewhere falls on both.

    python bench/bench_startup.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAM = "import sys, time; open(sys.argv[1], 'w').write(repr(time.time()))"


def bare(workdir: str, env: dict) -> tuple[float, float]:
    """(wall seconds, seconds until the program's first statement)."""
    stamp = os.path.join(workdir, "bare-stamp")
    t0 = time.time()
    subprocess.run([sys.executable, "-c", PROGRAM, stamp], env=env, check=True)
    wall = time.time() - t0
    with open(stamp) as f:
        return wall, float(f.read()) - t0


def one_cell_run(workdir: str, env: dict, tag: str) -> tuple[float, float]:
    stamp = os.path.join(workdir, f"{tag}-stamp")
    matrix = os.path.join(workdir, f"{tag}.yaml")
    with open(matrix, "w") as f:
        f.write(f"name: startup\ncommand: [python, -c, {PROGRAM!r}, {stamp}]\npass_params: none\naxes:\n  i: [1]\n")
    t0 = time.time()
    proc = subprocess.run(
        [sys.executable, "-m", "crashmatrix", "run", matrix, "--out", os.path.join(workdir, f"run-{tag}")],
        env=env,
        capture_output=True,
        text=True,
    )
    wall = time.time() - t0
    if proc.returncode != 0:
        sys.exit(f"bench_startup: crashmatrix run failed:\n{proc.stdout}{proc.stderr}")
    with open(stamp) as f:
        return wall, float(f.read()) - t0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(workdir, "cache"))
        env["PYTHONPATH"] = ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        cold_bare, cold = bare(workdir, env), one_cell_run(workdir, env, "cold")
        rounds = [(bare(workdir, env), one_cell_run(workdir, env, f"warm{i}")) for i in range(args.rounds)]
    over = statistics.median(run[0] - b[0] for b, run in rounds)
    start = statistics.median(run[1] - b[1] for b, run in rounds)
    print(f"bare launch: wall {statistics.median(b[0] for b, _ in rounds):.3f} s (median of {args.rounds})")
    print(f"cold cache:  1-cell run {cold[0]:.3f} s, {cold[0] - cold_bare[0]:+.3f} s over bare")
    print(f"warm cache:  1-cell run {statistics.median(r[0] for _, r in rounds):.3f} s, {over:+.3f} s over bare")
    print(f"first cell starts {start:.3f} s after the command, beyond a bare launch's own start (warm)")
    ok = over <= 0.5 and start <= 0.3
    print("goals (<= 0.5 s over bare, first cell <= 0.3 s):", "met" if ok else "MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
