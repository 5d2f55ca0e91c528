"""Preflight's time for 100 override sets on a config-group Hydra app (goal, issue 19: under 5 s).

Three matrices of 100 cells each on tests/apps/hydra_groups, timed through preflight.check (the
controller's side: expansion, the override sets, one child that imports Hydra and composes):
- keys:    100 sets that differ in a key only (seed), one group choice;
- groups:  25 seeds x 2 loggers x 2 trainers: 4 group choices, each composed once;
- options: a copy of the app with a group of 100 options, each set a different option (the worst
           case: every set a compose of its own), and its own `hydra: default` in the defaults list
           that overrides Hydra's logging, as the Lightning template has.
Beside them, Hydra's own compose called 100 times in one process (the keys matrix's sets), the
cost without preflight's reuse of a composed config.

    python bench/bench_preflight.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APP = os.path.join(ROOT, "tests", "apps", "hydra_groups", "app.py")
GOAL_S = 5.0


def _matrix(workdir: str, name: str, app: str, axes: str):
    from crashmatrix.matrix.spec import load_matrix

    path = os.path.join(workdir, f"{name}.yaml")
    with open(path, "w") as f:
        f.write(f"name: {name}\ncommand: [python, {app}]\naxes:\n{axes}")
    return load_matrix(path)


def _app_with_many_options(workdir: str) -> str:
    """The test app copied, with a `model` group of 100 options and a hydra group of its own."""
    copy = os.path.join(workdir, "app")
    shutil.copytree(os.path.dirname(APP), copy)
    os.makedirs(os.path.join(copy, "conf", "hydra"))
    with open(os.path.join(copy, "conf", "hydra", "default.yaml"), "w") as f:
        f.write("defaults:\n  - override hydra_logging: disabled\nrun:\n  dir: logs/${now:%H-%M-%S}\n")
    _add_default(os.path.join(copy, "conf", "train.yaml"), "  - hydra: default\n")
    os.makedirs(os.path.join(copy, "conf", "model"))
    for i in range(100):
        with open(os.path.join(copy, "conf", "model", f"m{i}.yaml"), "w") as f:
            f.write(f"width: {i}\n")
    return os.path.join(copy, "app.py")


def _add_default(path: str, line: str) -> None:
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(text.replace("  - logger: null\n", "  - logger: null\n" + line, 1))


def _time_check(matrix) -> float:
    from crashmatrix.app import preflight
    from crashmatrix.matrix.expand import expand

    cells = expand(matrix)
    assert len(cells) == 100, len(cells)
    start = time.perf_counter()
    preflight.check(matrix, cells)
    return time.perf_counter() - start


def _plain_hydra(sets: list[list[str]]) -> float:
    """Hydra's compose once per set, in this process (the import not counted)."""
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=os.path.join(os.path.dirname(APP), "conf"), version_base=None):
        start = time.perf_counter()
        for overrides in sets:
            compose(config_name="train", overrides=overrides, return_hydra_config=True)
        return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, ROOT)
    workdir = tempfile.mkdtemp(prefix="bench-preflight-")
    seeds = "[" + ",".join(str(i) for i in range(100)) + "]"
    matrices = {
        "keys": _matrix(workdir, "keys", APP, f"  seed: {seeds}\n"),
        "groups": _matrix(
            workdir,
            "groups",
            APP,
            "  seed: [" + ",".join(str(i) for i in range(25)) + "]\n"
            "  logger: [csv, wandb]\n  trainer: [default, gpu]\n",
        ),
        "options": _matrix(
            workdir,
            "options",
            _app_with_many_options(workdir),
            "  +model: [" + ",".join(f"m{i}" for i in range(100)) + "]\n",
        ),
    }
    times: dict[str, list[float]] = {name: [] for name in matrices}
    for _ in range(args.rounds):
        for name, matrix in matrices.items():
            times[name].append(_time_check(matrix))
    plain = _plain_hydra([[f"seed={i}"] for i in range(100)])
    missed = False
    for name, values in times.items():
        median = statistics.median(values)
        missed |= median >= GOAL_S
        print(f"{name:8} 100 sets: median {median:.2f} s (rounds: {', '.join(f'{v:.2f}' for v in values)})")
    print(f"Hydra's compose x100 in one process, no reuse: {plain:.2f} s")
    print(f"goal: each under {GOAL_S:.0f} s: {'missed' if missed else 'met'}")
    shutil.rmtree(workdir, ignore_errors=True)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
