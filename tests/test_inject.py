"""`inject: true`: an unmodified program gets crashmatrix's knobs from outside and only its own keys as
arguments; `{values, keys}` axes; metrics for an external program. Real processes, real torch
(tests/apps/knob_probe_app.py), real YAML."""

import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT, can_unshare_mounts, crashmatrix, only_cell_stdout, rows_of, run_rows

APP = os.path.join(ROOT, "tests", "apps", "knob_probe_app.py")


def _observed(run, row) -> dict:
    with open(run / row["log_dir"] / "observed.json") as f:
        return json.load(f)


@pytest.mark.slow
def test_knobs_are_forced_from_outside_and_only_the_programs_keys_arrive(tmp_path, write):
    path = write(
        "m.yaml",
        f"""\
name: knobs
command: [python, {APP}]
inject: true
params:
  samples: 6
axes:
  start_method: [spawn]
  train.pin_memory: [true]
  num_workers: [1, 0]
  sharing_strategy: [file_system]
  rlimit.nofile: [300]
  cudnn.benchmark: [true]
  wandb: [offline]
  loader_workers: {{values: [3], keys: [val.num_workers, +extra.workers]}}
""",
    )
    rows = {r["num_workers"]: r for r in run_rows(path, tmp_path)}
    assert [r["outcome"] for r in rows.values()] == ["pass", "pass"], [r["error"] for r in rows.values()]
    for row in rows.values():
        seen = _observed(tmp_path / "run", row)
        # Knobs never reach the program; its own keys do, verbatim and in the file's order; the keys
        # axis arrives as each of its keys; the CSV column is the axis's name.
        assert seen["argv"] == ["samples=6", "train.pin_memory=true", "val.num_workers=3", "+extra.workers=3"]
        assert row["loader_workers"] == "3"
        assert seen["start_method"] == "spawn" and seen["wandb_mode"] == "offline"
        assert seen["main"] == {"sharing_strategy": "file_system", "nofile": 300, "cudnn_benchmark": True}
        # The num_workers knob wins over the program's own 2 (train) and 3 (val, from its keys axis).
        assert seen["train"]["num_workers"] == seen["val"]["num_workers"] == int(row["num_workers"])
        # Metrics of an unmodified program: the busiest loader (train: 3 batches of 2), RSS of the main process.
        # 3 batches are too few for a rate (the column stays empty); the first batch's wait is still told.
        assert row["steps"] == "3" and row["steps_per_s"] == "" and float(row["peak_rss_mb"]) > 50
        assert float(row["first_batch_s"]) > 0
        assert row["peak_gpu_mb"] == ""  # CUDA never initialised here
    # A spawned DataLoader worker is a fresh interpreter: the knobs hold there too.
    assert _observed(tmp_path / "run", rows["1"])["worker"] == {
        "in_worker": True,
        "sharing_strategy": "file_system",
        "nofile": 300,
        "cudnn_benchmark": True,
    }
    # num_workers=0 forced over the program's persistent_workers=True and timeout=60: torch would refuse
    # them (for the timeout, an AssertionError when the loop starts); they are dropped.
    assert _observed(tmp_path / "run", rows["0"])["train"] == {
        "num_workers": 0,
        "pin_memory": True,
        "persistent_workers": False,
        "prefetch_factor": None,
        "timeout": 0,
    }
    with_workers = _observed(tmp_path / "run", rows["1"])["train"]
    assert with_workers["persistent_workers"] is True and with_workers["timeout"] == 60


def test_a_program_without_torch_gets_its_keys_and_never_imports_torch(tmp_path, write):
    script = write(
        "plain.py",
        "import json, os, sys\n"
        "json.dump([sys.argv[1:], 'torch' in sys.modules, os.environ.get('WANDB_MODE')], sys.stdout)\n",
    )
    text = f"""\
name: plain
command: [python, {script}]
axes:
  lr: [0.1]
  num_workers: [4]
  sharing_strategy: [file_system]
  wandb: [disabled]
  both: {{values: [x], keys: [a.b, c]}}
"""
    seen = {}
    for inject in ("true", "false"):
        path = write(f"m-{inject}.yaml", text + f"inject: {inject}\n")
        proc = crashmatrix("run", path, "--out", tmp_path / inject, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        (row,) = rows_of(tmp_path / inject)
        assert row["outcome"] == "pass", row["error"]
        seen[inject] = json.loads((tmp_path / inject / row["log_dir"] / "stdout.log").read_text())
        if inject == "true":
            assert row["steps"] == "" and float(row["peak_rss_mb"]) > 0  # no DataLoader: no steps
    assert seen["true"] == [["lr=0.1", "a.b=x", "c=x"], False, "disabled"]
    # Without inject the program may implement the knobs itself: every axis passes.
    assert seen["false"][0] == [
        "lr=0.1",
        "num_workers=4",
        "sharing_strategy=file_system",
        "wandb=disabled",
        "a.b=x",
        "c=x",
    ]


@pytest.mark.slow
def test_a_knob_that_cannot_be_applied_is_said_and_the_program_still_runs(tmp_path, write):
    script = write(
        "own.py",
        """\
import multiprocessing as mp
import torch
if __name__ == "__main__":
    mp.set_start_method("fork")  # the program's own choice; without force it would raise once set
    print(mp.get_start_method(), torch.multiprocessing.get_sharing_strategy())
""",
    )
    path = write(
        "m.yaml",
        f"name: bad\ncommand: [python, {script}]\ninject: true\n"
        "axes:\n  start_method: [spawn]\n  sharing_strategy: [no_such_strategy]\n",
    )
    (row,) = run_rows(path, tmp_path)
    assert row["outcome"] == "pass", row["error"]
    cell = tmp_path / "run" / row["log_dir"]
    assert (cell / "stdout.log").read_text() == "spawn file_descriptor\n"
    err = (cell / "stderr.log").read_text()
    assert (
        "crashmatrix inject: sharing_strategy=no_such_strategy not applied: AssertionError: invalid sharing strategy"
        in err
    )
    assert (
        "crashmatrix inject: start_method=spawn is the cell's knob; the program's set_start_method('fork') is ignored"
        in err
    )


@pytest.mark.slow
def test_an_inject_cell_loads_only_the_in_cell_code_and_none_of_the_controllers_libraries(tmp_path, write):
    # The cell is the user's process: the controller's modules, or yaml, hydra, tabulate and submitit
    # through them, would change what is being debugged.
    script = write(
        "mods.py",
        """\
import json, sys
import torch
from torch.utils.data import DataLoader
list(DataLoader(list(range(4)), batch_size=2))
ours = {n: getattr(m, "__file__", None) for n, m in sys.modules.items() if n.split(".")[0] in ("crashmatrix", "_crashmatrix")}
libs = [n for n in ("yaml", "hydra", "omegaconf", "tabulate", "submitit") if n in sys.modules]
print(json.dumps([ours, libs]))
""",
    )
    path = write(
        "m.yaml",
        f"name: mods\ncommand: [python, {script}]\npass_params: none\ninject: true\n"
        "axes:\n  start_method: [spawn]\n  rlimit.nofile: [300]\n  num_threads: [1]\n  num_workers: [0]\n",
    )
    run_rows(path, tmp_path)
    ours, libs = json.loads(only_cell_stdout(tmp_path / "run"))
    incell = os.path.join(ROOT, "runner", "incell")
    assert libs == []
    assert {"_crashmatrix", "_crashmatrix.knobs", "_crashmatrix.injection", "_crashmatrix.stackdump"} <= set(ours)
    assert {n for n in ours if not n.startswith("_crashmatrix")} == set()
    assert all(f is None or f.startswith(incell + os.sep) for f in ours.values()), ours


def test_after_import_runs_each_callback_once_in_order_from_one_finder(tmp_path):
    # stackdump and injection both wait for torch through runner/incell/importhook.py: one finder, each
    # callback once and in order, a failing one said without stopping the import.
    (tmp_path / "watched.py").write_text("VALUE = 7\n")
    code = """
import sys
from crashmatrix.incell import importhook
seen = []
importhook.after_import("watched", lambda m: seen.append(("first", m.VALUE)), print)
importhook.after_import("watched", lambda m: 1 / 0, lambda m, e: seen.append(("said", type(e).__name__)))
importhook.after_import("watched", lambda m: seen.append(("second", m.VALUE)), print)
import watched
import watched
importhook.after_import("watched", lambda m: seen.append(("late", m.VALUE)), print)
finders = sum(type(f).__name__ == "_AfterImport" for f in sys.meta_path)
print(seen, finders)
"""
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}"}
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[('first', 7), ('said', 'ZeroDivisionError'), ('second', 7), ('late', 7)] 1"


@pytest.mark.slow
def test_shm_mb_gives_an_unmodified_program_the_real_small_shm_failure(tmp_path, write):
    # 2 samples x 4 MiB per batch against an 8 MiB /dev/shm, from fork workers. Where no private
    # mount namespace can be made the cell must be a skip with the reason instead.
    path = write(
        "m.yaml",
        f"""\
name: shm
command: [python, {APP}]
inject: true
params: {{tensor_kb: 4096, train.persistent_workers: false}}
axes:
  shm_mb: [8]
  num_workers: [2]
""",
    )
    (row,) = run_rows(path, tmp_path)
    if not can_unshare_mounts():
        assert row["outcome"] == "skip" and "shm_mb=8: cannot make a private mount namespace" in row["error"]
        return
    # torch allocates shm with posix_fallocate: ENOSPC in the worker, re-raised by the main process.
    assert row["outcome"] in ("fail", "worker_crash", "oom"), row
    assert "unable to allocate shared memory(shm) for file" in row["error"], row
    assert (tmp_path / "run" / row["log_dir"] / "report.json").exists()  # metrics, with no status
    assert "status" not in json.loads((tmp_path / "run" / row["log_dir"] / "report.json").read_text())


# ------------------------------------------------------------------ the {values, keys} axis form


@pytest.mark.slow
def test_a_keys_axis_is_shown_overridden_and_bisected_by_its_values(tmp_path, write):
    path = write(
        "m.yaml",
        """\
name: k
command: [prog]
axes:
  loader_workers:
    values: [0, 2]
    keys: [data.train.num_workers, data.val.num_workers]
  data.extra: [a]
""",
    )
    proc = crashmatrix("show", path, "axes.loader_workers.values=[0,4,8]", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "loader_workers sets: data.train.num_workers, data.val.num_workers" in proc.stdout
    assert "3 cells" in proc.stdout
    sys.path.insert(0, ROOT)
    from crashmatrix.bisect.verb import configurations
    from crashmatrix.matrix.app_args import cell_params
    from crashmatrix.matrix.spec import load_matrix

    matrix = load_matrix(path, ["axes.loader_workers.values=[0,4]"])
    good, bad = configurations(matrix, ["loader_workers=0"], ["loader_workers=4"])
    assert (good, bad) == ({"loader_workers": 0, "data.extra": "a"}, {"loader_workers": 4, "data.extra": "a"})
    assert cell_params(matrix, bad) == {"data.train.num_workers": 4, "data.val.num_workers": 4, "data.extra": "a"}
    # The resolved matrix written to a run directory keeps the form (reloaded by --resume).
    assert matrix.to_yaml_dict()["axes"]["loader_workers"] == {
        "values": [0, 4],
        "keys": ["data.train.num_workers", "data.val.num_workers"],
    }


def test_a_keys_axis_sets_each_key_of_a_probe(tmp_path, write):
    sys.path.insert(0, ROOT)
    from crashmatrix.matrix.app_args import cell_params
    from crashmatrix.matrix.spec import load_matrix

    path = write(
        "m.yaml", "name: p\nprobe: dataloader\naxes:\n  loaders: {values: [2], keys: [num_workers, batch_size]}\n"
    )
    matrix = load_matrix(path)
    assert cell_params(matrix, {"loaders": 2}) == {"num_workers": 2, "batch_size": 2}
    bad = write("bad.yaml", "name: p\nprobe: dataloader\naxes:\n  loaders: {values: [2], keys: [num_workers, nope]}\n")
    proc = crashmatrix("show", bad, cwd=tmp_path)
    assert proc.returncode == 2 and "axes.loaders.keys: probe 'dataloader' has no parameter 'nope'" in proc.stderr


KEYS = "axes.lw.keys: expected a non-empty list of distinct key names (the program's keys this axis sets), got "


@pytest.mark.parametrize(
    "axis, message",
    [
        ("{values: [], keys: [a]}", "axes.lw.values: expected a non-empty list of scalars, got []"),
        ("{values: [1, {x: 1}], keys: [a]}", "axes.lw.values: expected a non-empty list of scalars, got [1, {'x': 1}]"),
        ("{values: [1], keys: []}", KEYS + "[]"),
        ("{values: [1], keys: a}", KEYS + "'a'"),
        ("{values: [1], keys: [a, 3]}", KEYS + "['a', 3]"),
        ("{values: [1]}", KEYS + "None"),
        (
            "{values: [1], keys: [a], each: true}",
            "axes.lw.each: unknown key (an axis mapping has only values: and keys:)",
        ),
    ],
)
def test_a_bad_keys_axis_is_bad_input_naming_file_and_key(tmp_path, write, axis, message):
    path = write("m.yaml", f"name: k\ncommand: [prog]\naxes:\n  lw: {axis}\n")
    proc = crashmatrix("show", path, cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout
    assert proc.stderr.strip() == f"crashmatrix: {path}: {message}", proc.stderr
