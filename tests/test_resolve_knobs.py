"""Every knob `crashmatrix knobs` lists is one resolve can recommend, and it says how to apply it truly.

For each knob a finished run directory, written as the engine writes one (matrix.yaml with `inject: true`,
results.csv, each run's cell folder): the knob is the one axis, one value fails every run with the same
ValueError, the other passes every run. resolve must exit 0 and recommend the passing value with the line a
user writes to set it without crashmatrix (a line of code, or what to set in the environment); here through
resolve's own function, which `crashmatrix resolve` calls (its exit status: test_uneven_ranks). The real
end-to-end case, ddp.find_unused_parameters on a 2-rank app with an unused parameter, is in
tests/test_uneven_ranks.py beside the other DDP runs.
"""

from __future__ import annotations

import csv
import json
import os

import pytest
import yaml

from crashmatrix.matrix.knob_names import KNOBS
from crashmatrix.resolve.verb import resolve_run

# knob -> (the failing value, the passing value, how the program sets the passing value itself)
WALK = {
    "start_method": ("fork", "spawn", ("code", 'torch.multiprocessing.set_start_method("spawn", force=True)')),
    "sharing_strategy": (
        "file_descriptor",
        "file_system",
        ("code", 'torch.multiprocessing.set_sharing_strategy("file_system")'),
    ),
    "num_threads": (8, 1, ("code", "torch.set_num_threads(1)")),
    "cudnn.benchmark": (True, False, ("code", "torch.backends.cudnn.benchmark = False")),
    "cudnn.deterministic": (False, True, ("code", "torch.backends.cudnn.deterministic = True")),
    "cudnn.enabled": (True, False, ("code", "torch.backends.cudnn.enabled = False")),
    "rlimit.nofile": (64, 4096, ("environment", "ulimit -n 4096")),
    "rlimit.as_mb": (512, 8192, ("environment", "ulimit -v 8388608")),  # ulimit -v counts kB
    "shm_mb": (64, 1024, ("environment", "a /dev/shm of 1024 MB (docker run --shm-size=1024m)")),
    "num_workers": (4, 0, ("code", "DataLoader(..., num_workers=0)")),
    "pin_memory": (True, False, ("code", "DataLoader(..., pin_memory=False)")),
    "persistent_workers": (False, True, ("code", "DataLoader(..., persistent_workers=True)")),
    "prefetch_factor": (8, 2, ("code", "DataLoader(..., prefetch_factor=2)")),
    "ddp.find_unused_parameters": (
        False,
        True,
        (
            "code",
            "DistributedDataParallel(..., find_unused_parameters=True) (Lightning: DDPStrategy(find_unused_parameters=True))",
        ),
    ),
    "ddp.static_graph": (
        True,
        False,
        ("code", "DistributedDataParallel(..., static_graph=False) (Lightning: DDPStrategy(static_graph=False))"),
    ),
    "ddp.gradient_as_bucket_view": (
        True,
        False,
        (
            "code",
            "DistributedDataParallel(..., gradient_as_bucket_view=False) "
            "(Lightning: DDPStrategy(gradient_as_bucket_view=False))",
        ),
    ),
    "ddp.broadcast_buffers": (
        True,
        False,
        (
            "code",
            "DistributedDataParallel(..., broadcast_buffers=False) (Lightning: DDPStrategy(broadcast_buffers=False))",
        ),
    ),
    "ddp.bucket_cap_mb": (
        1,
        25,
        ("code", "DistributedDataParallel(..., bucket_cap_mb=25) (Lightning: DDPStrategy(bucket_cap_mb=25))"),
    ),
    "wandb": ("online", "disabled", ("environment", "WANDB_MODE=disabled")),
}
COLUMNS = "cell_id,repeat,{axis},outcome,signal,exit_code,error,duration_s,host,log_dir,signature,where,rank".split(",")
ERROR = "ValueError: the knob's bad value"
REPEATS = 3


def test_the_walk_covers_every_knob():
    assert set(WALK) == set(KNOBS)


def _spelled(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def write_run(run, knob: str, bad, good) -> None:
    """A finished run as the engine leaves one: `bad` failed each of its runs, `good` passed each."""
    matrix = {
        "name": "walk",
        "command": ["python", "train.py"],
        "pass_params": "overrides",
        "inject": True,
        "params": {"steps": 4},
        "axes": {knob: [bad, good]},
        "env": {},
        "strategy": "full",
        "repeats": REPEATS,
        "timeout": 60.0,
    }
    os.makedirs(run / "cells")
    (run / "matrix.yaml").write_text(yaml.safe_dump(matrix, sort_keys=False))
    rows = []
    for cell_id, value in (("aaaaaaaaaa", bad), ("bbbbbbbbbb", good)):
        failed = value is bad
        for repeat in range(REPEATS):
            log_dir = f"cells/{cell_id}-r{repeat}"
            os.makedirs(run / log_dir)
            stderr = f'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n{ERROR}\n'
            (run / log_dir / "stderr.log").write_text(stderr if failed else "")
            (run / log_dir / "stdout.log").write_text("")
            row = {
                "cell_id": cell_id,
                "repeat": repeat,
                knob: _spelled(value),
                "outcome": "fail" if failed else "pass",
                "exit_code": 1 if failed else 0,
                "error": ERROR if failed else "",
                "duration_s": 2.0,
                "host": "vm",
                "log_dir": log_dir,
                "signature": ERROR if failed else "",
                "where": "train.py:3 in <module>" if failed else "",
            }
            (run / log_dir / "result.json").write_text(json.dumps({**row, "values": {knob: value}}))
            rows.append(row)
    with open(run / "results.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=[c.format(axis=knob) for c in COLUMNS])
        writer.writeheader()
        writer.writerows(rows)


@pytest.mark.parametrize("knob", list(WALK))
@pytest.mark.slow
def test_resolve_recommends_each_knob_with_how_to_apply_it(knob, tmp_path):
    bad, good, (where, line) = WALK[knob]
    run = tmp_path / "run"
    write_run(run, knob, bad, good)
    resolve_run(str(run))  # resolve's own function, as `crashmatrix resolve RUN` calls it: 19 starts saved
    resolution = json.loads((run / "resolution.json").read_text())
    recommended = resolution["recommended"]
    assert recommended["values"] == {knob: good}
    assert recommended["apply"][where] == [line] and recommended["apply"]["arguments"] == []
    assert line in recommended["overrides"]
    assert f"`{line}`" in (run / "resolution.md").read_text()


def test_the_machines_own_dev_shm_is_told_as_it_is_not_as_a_size_of_0():
    # a review's run (2026-12-01) where shm_mb=0 (no private /dev/shm: the machine's own) passed and shm_mb=1 failed:
    # resolution.md advised "a /dev/shm of 0 MB (docker run --shm-size=0m)", a container no program could start in
    from crashmatrix.resolve.apply import _knob_line

    assert _knob_line("shm_mb", 0) == ("environment", "the machine's own /dev/shm, as it is (no --shm-size to give)")
    assert _knob_line("shm_mb", 64) == ("environment", "a /dev/shm of 64 MB (docker run --shm-size=64m)")
