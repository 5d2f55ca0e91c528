"""The controller's cost per cell, against bare launches of the same program, measured in one run.

Goals (issue 2): cells that import torch within 3% of bare launches; crashing
cells within 30 ms each of a bare launch. Rounds alternate bare and engine so
that load from anything else on the machine falls on both alike.

    python bench/bench_engine.py [--torch-cells 8] [--crash-cells 40] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from runner.engine import Engine  # noqa: E402
from runner.expand import cell_runs, columns, expand  # noqa: E402
from runner.spec import load_matrix  # noqa: E402
from runner.store import RunDir  # noqa: E402

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


def engine(code: str, n: int, workdir: str, tag: str) -> tuple[float, list]:
    path = os.path.join(workdir, f"{tag}.yaml")
    with open(path, "w") as f:
        f.write(f"name: bench\ncommand: [python, -c, {code!r}]\naxes:\n  i: {list(range(n))}\ntimeout: 300\n")
    matrix = load_matrix(path)
    cells = expand(matrix)
    store = RunDir(os.path.join(workdir, f"run-{tag}"))
    store.create(matrix.to_yaml_dict(), columns(matrix, cells))
    results = []
    eng = Engine(matrix, run_dir=store.path, cell_dir_for=store.cell_dir, rel=store.rel,
                 on_result=lambda r: (store.record(r), results.append(r)), jobs=1)
    t0 = time.perf_counter()
    eng.run(cell_runs(matrix, cells))
    return time.perf_counter() - t0, results


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--torch-cells", type=int, default=8)
    ap.add_argument("--crash-cells", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind, n in (("torch", args.torch_cells), ("crash", args.crash_cells)):
            b_times, e_times = [], []
            for rnd in range(args.rounds):
                b_times.append(bare(PROGRAMS[kind], n, tmp))
                t, results = engine(PROGRAMS[kind], n, tmp, f"{kind}{rnd}")
                e_times.append(t)
                want = "crash" if kind == "crash" else "pass"
                assert all(r.outcome == want for r in results), [r.outcome for r in results]
            b, e = statistics.median(b_times), statistics.median(e_times)
            rows.append((kind, n, b / n * 1000, e / n * 1000, (e - b) / n * 1000, e / b))
    all_met = True
    print(f"{'cells':<8}{'n':>4}{'bare ms/cell':>14}{'engine ms/cell':>16}{'overhead ms':>13}{'ratio':>8}  goal")
    for kind, n, b, e, d, ratio in rows:
        goal = "ratio <= 1.03" if kind == "torch" else "overhead <= 30 ms"
        ok = ratio <= 1.03 if kind == "torch" else d <= 30
        all_met &= ok
        print(f"{kind:<8}{n:>4}{b:>14.1f}{e:>16.1f}{d:>13.1f}{ratio:>8.3f}  {goal}: {'met' if ok else 'NOT met'}")
    print(f"(median of {args.rounds} alternating rounds; python {sys.version.split()[0]}, {os.cpu_count()} cores)")
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())
