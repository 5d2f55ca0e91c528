"""The controller's cost per cell and at start, against bare launches of the same program, in one run.

Goals (issues 2 and 12): cells that import torch within 3% of bare launches;
crashing cells within 10 ms each of a bare launch; the first cell of
`crashmatrix run` started within 0.3 s of the command (the cell writes
time.time() as its first statement; a bare launch of the same program, timed
the same way, is subtracted: that is the cell's own interpreter starting).
Rounds alternate bare and crashmatrix so that load from anything else on the
machine falls on both alike.

    python bench/bench_engine.py [--torch-cells 8] [--crash-cells 40] [--rounds 3] [--start-rounds 5]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from crashmatrix.engine.loop import Engine  # noqa: E402
from crashmatrix.matrix.expand import cell_runs, columns, expand  # noqa: E402
from crashmatrix.matrix.spec import load_matrix  # noqa: E402
from crashmatrix.rundir.store import RunDir  # noqa: E402

PROGRAMS = {
    "torch": "import torch; torch.ones(2).sum()",
    "crash": "import os; os.kill(os.getpid(), 11)",
}


def bare(code: str, n: int, workdir: str) -> float:
    t0 = time.perf_counter()
    for i in range(n):
        # Output to files, as the engine does, so both sides pay the same I/O.
        with open(os.path.join(workdir, f"o{i}"), "wb") as out, open(os.path.join(workdir, f"e{i}"), "wb") as err:
            subprocess.run([sys.executable, "-c", code, f"i={i}"], stdout=out, stderr=err)
    return time.perf_counter() - t0


def engine(code: str, n: int, workdir: str, tag: str) -> tuple[float, float, list]:
    """Wall seconds, the controller's own CPU seconds (not its cells'), the results."""
    path = os.path.join(workdir, f"{tag}.yaml")
    with open(path, "w") as f:
        f.write(f"name: bench\ncommand: [python, -c, {code!r}]\naxes:\n  i: {list(range(n))}\ntimeout: 300\n")
    matrix = load_matrix(path)
    cells = expand(matrix)
    store = RunDir(os.path.join(workdir, f"run-{tag}"))
    store.create(matrix.to_yaml_dict(), columns(matrix, cells))
    results = []
    eng = Engine(
        matrix,
        store=store,
        on_result=lambda r: (store.record(r), results.append(r)),
        jobs=1,
    )
    t0, cpu0 = time.perf_counter(), _cpu()
    eng.run(cell_runs(matrix, cells))
    return time.perf_counter() - t0, _cpu() - cpu0, results


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


STAMP = "import sys, time; open(sys.argv[1], 'w').write(repr(time.time()))"


def cached_bytecode_env(workdir: str) -> dict:
    """An installed crashmatrix starts from cached bytecode; PYTHONDONTWRITEBYTECODE (set on some
    machines) would make every start compile the controller again. The cache goes to workdir, not the repo."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = os.path.join(workdir, "pycache")
    return env


def bare_start(workdir: str) -> float:
    """Seconds from the launch to the first statement of a bare `python -c`."""
    stamp = os.path.join(workdir, "bare.stamp")
    t0 = time.time()
    subprocess.run([sys.executable, "-c", STAMP, stamp], check=True, env=cached_bytecode_env(workdir))
    with open(stamp) as f:
        return float(f.read()) - t0


def crashmatrix_start(workdir: str, tag: str) -> float:
    """Seconds from `crashmatrix run` to the first statement of its first cell (the fingerprint as users get it)."""
    stamp = os.path.join(workdir, f"{tag}.stamp")
    path = os.path.join(workdir, f"{tag}.yaml")
    with open(path, "w") as f:
        f.write(
            f"name: start\ncommand: [python, -c, {STAMP!r}, {stamp}]\npass_params: none\n"
            f"axes:\n  i: [0]\ntimeout: 300\n"
        )
    t0 = time.time()
    subprocess.run(
        [sys.executable, "-m", "crashmatrix", "run", path, "--out", os.path.join(workdir, f"run-{tag}")],
        check=True,
        stdout=subprocess.DEVNULL,
        cwd=ROOT,
        env=cached_bytecode_env(workdir),
    )
    with open(stamp) as f:
        return float(f.read()) - t0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--torch-cells", type=int, default=8)
    ap.add_argument("--crash-cells", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--start-rounds", type=int, default=5)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        bare_s, cm_s = [], []
        crashmatrix_start(tmp, "warm")  # writes the bytecode cache, as a first run after installing does
        for rnd in range(args.start_rounds):
            bare_s.append(bare_start(tmp))
            cm_s.append(crashmatrix_start(tmp, f"start{rnd}"))
        for kind, n in (("torch", args.torch_cells), ("crash", args.crash_cells)):
            b_times, e_times, cpu_times = [], [], []
            for rnd in range(args.rounds):
                b_times.append(bare(PROGRAMS[kind], n, tmp))
                t, cpu, results = engine(PROGRAMS[kind], n, tmp, f"{kind}{rnd}")
                e_times.append(t)
                cpu_times.append(cpu)
                want = "crash" if kind == "crash" else "pass"
                assert all(r.outcome == want for r in results), [r.outcome for r in results]
            b, e = statistics.median(b_times), statistics.median(e_times)
            cpu = statistics.median(cpu_times)
            rows.append((kind, n, b / n * 1000, e / n * 1000, (e - b) / n * 1000, e / b, cpu / n * 1000))
    all_met = True
    b, c = statistics.median(bare_s), statistics.median(cm_s)
    ok = c - b <= 0.3
    all_met &= ok
    print(f"{'start':<8}{'':>4}{'bare ms':>14}{'run ms':>16}{'delay ms':>13}{'ratio':>8}{'':>12}  goal")
    print(
        f"{'first':<8}{1:>4}{b * 1000:>14.1f}{c * 1000:>16.1f}{(c - b) * 1000:>13.1f}{c / b:>8.2f}{'':>12}  "
        f"delay <= 300 ms: {'met' if ok else 'NOT met'}"
    )
    print(
        f"{'cells':<8}{'n':>4}{'bare ms/cell':>14}{'engine ms/cell':>16}{'overhead ms':>13}{'ratio':>8}"
        f"{'ctl cpu ms':>12}  goal"
    )
    for kind, n, b, e, d, ratio, cpu in rows:
        goal = "ratio <= 1.03" if kind == "torch" else "overhead <= 10 ms"
        ok = ratio <= 1.03 if kind == "torch" else d <= 10
        all_met &= ok
        print(
            f"{kind:<8}{n:>4}{b:>14.1f}{e:>16.1f}{d:>13.1f}{ratio:>8.3f}{cpu:>12.1f}  "
            f"{goal}: {'met' if ok else 'NOT met'}"
        )
    print(
        f"(start: median of {args.start_rounds}, cells: median of {args.rounds} alternating rounds; python {sys.version.split()[0]}, {os.cpu_count()} cores)"
    )
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())
