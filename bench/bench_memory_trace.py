"""What the instrumented rerun of a growing cell costs (issue 50, item 2), against the same run uninstrumented,
in one run of this script; and that it names the line.

    python bench/bench_memory_trace.py [--rounds 3]

Each app is started as crashmatrix starts an injected cell (incell/inject on PYTHONPATH, the cell's
variables set), once with `CRASHMATRIX_TRACE_MEMORY=1` (tracemalloc from the first batch, a census at steps
10, 20, 40, 80: runner/incell/memory_trace.py) and once without, alternating, so that load from elsewhere
falls on both. Per app: the median wall time of the process and of its loop (steps / steps_per_s, the speed
column) traced over untraced, and what the last census named:

- `keeps_outputs`: tests/apps/keeps_outputs.py, cache_preds=true, no workers, 100 steps (a loop that keeps
  its outputs: 1 MiB tensors);
- `decode_cache`: tests/apps/decode_cache.py, cache_decoded=true, no workers, 80 steps (a dataset that
  caches its decoded images; each item's decode is a 25 ms sleep, so the loop is mostly waiting).
- `decode_cache_workers`: the same with 2 loader workers, where the cache grows in each worker: each
  worker's census at items 10, 20, 40, 80 (`kept-<pid>.json`), the one that grew most named.
- `sums_losses`: tests/apps/sums_losses.py, keep_graph=true, 100 steps (a running sum of loss tensors that
  holds every step's autograd graph: each census also walks the graphs the live tensors hold).

`--app NAME` runs one of them only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from crashmatrix.answers.kept import from_census  # noqa: E402

APPS = {
    "keeps_outputs": ["tests/apps/keeps_outputs.py", "cache_preds=true", "num_workers=0", "steps=100"],
    "decode_cache": ["tests/apps/decode_cache.py", "cache_decoded=true", "num_workers=0", "steps=80"],
    "decode_cache_workers": ["tests/apps/decode_cache.py", "cache_decoded=true", "num_workers=2", "steps=80"],
    "sums_losses": ["tests/apps/sums_losses.py", "keep_graph=true", "steps=100"],
}


def once(args: list[str], traced: bool) -> tuple[float, float, dict]:
    """(wall s, loop s, the census) of one run of the app, as an injected cell."""
    with tempfile.TemporaryDirectory() as cell:
        env = dict(os.environ)
        env.update(
            PYTHONPATH=os.path.join(ROOT, "runner", "incell", "inject"),
            CRASHMATRIX_KNOBS="{}",
            CRASHMATRIX_CELL_DIR=cell,
            CRASHMATRIX_REPORT=os.path.join(cell, "report.json"),
            CRASHMATRIX_TRACE_MEMORY="1" if traced else "0",
            MALLOC_MMAP_THRESHOLD_="131072",
        )
        began = time.perf_counter()
        subprocess.run([sys.executable, os.path.join(ROOT, args[0]), *args[1:]], env=env, check=True, cwd=ROOT,
                       stdout=subprocess.DEVNULL)  # fmt: skip
        wall = time.perf_counter() - began
        with open(os.path.join(cell, "report.json"), encoding="utf-8") as f:
            metrics = json.load(f)["metrics"]
        census = {}
        if traced:  # the main's census, or where workers took theirs, the one that grew most
            names = sorted(n for n in os.listdir(cell) if n.startswith("kept-")) or ["kept.json"]
            for name in names:
                with open(os.path.join(cell, name), encoding="utf-8") as f:
                    found = json.load(f)
                if _grown(found) >= _grown(census):
                    census = found
        return wall, metrics["steps"] / metrics["steps_per_s"], census


def _grown(census: dict) -> float:
    kept = from_census(census) if census else None
    return kept.mb if kept else -1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--app", choices=sorted(APPS), help="one app only")
    options = parser.parse_args()
    rounds = options.rounds
    print(f"load {os.getloadavg()[0]:.1f}; {rounds} rounds, traced and untraced alternating")
    for name, args in APPS.items():
        if options.app and name != options.app:
            continue
        plain, traced, census = [], [], {}
        for _ in range(rounds):
            plain.append(once(args, False)[:2])
            wall, loop, census = once(args, True)
            traced.append((wall, loop))
        wall_ratio = statistics.median(t[0] for t in traced) / statistics.median(p[0] for p in plain)
        loop_ratio = statistics.median(t[1] for t in traced) / statistics.median(p[1] for p in plain)
        kept = from_census(census)
        print(
            f"{name}: wall {statistics.median(p[0] for p in plain):.2f} s -> {statistics.median(t[0] for t in traced):.2f} s "
            f"({wall_ratio:.2f}x); loop {statistics.median(p[1] for p in plain):.2f} s -> "
            f"{statistics.median(t[1] for t in traced):.2f} s ({loop_ratio:.2f}x); named: {kept.text() if kept else None}"
        )


if __name__ == "__main__":
    main()
