"""The small verbs, and the controller's promise never to import torch."""

import csv
import io
import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT, crashmatrix


def test_the_controller_never_imports_torch():
    # Every controller module, a matrix loaded with overrides, expanded pairwise, and the CLI parsed.
    code = """
import sys, importlib, pkgutil, crashmatrix
for m in pkgutil.iter_modules(crashmatrix.__path__):
    if m.name != "__main__":  # that one runs the CLI
        importlib.import_module("crashmatrix." + m.name)
from crashmatrix.matrix.spec import load_matrix
from crashmatrix.matrix.expand import expand
m = load_matrix("matrix/default.yaml", ["repeats=2"])
assert len(expand(m)) == 9
from crashmatrix import probes
for name in probes.names():
    probes.load(name).PARAMS
print("torch" in sys.modules, "numpy" in sys.modules)
"""
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ROOT}
    )
    assert out.returncode == 0, out.stderr
    torch_loaded, _numpy = out.stdout.split()
    assert torch_loaded == "False"


def test_version_prints_the_source_trees_version_and_exits_0(tmp_path):
    # From a source tree (as the tests run it) the version is its pyproject's; the wheel's, read from
    # the installed metadata, is checked in test_wheel.py.
    from installed import pyproject_version

    done = crashmatrix("--version", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"crashmatrix {pyproject_version()}\n", "")
    assert "--version" in crashmatrix("-h", cwd=tmp_path).stdout


@pytest.mark.slow
def test_show_prints_the_cells_in_every_format(tmp_path):
    matrix = os.path.join(ROOT, "matrix", "default.yaml")
    table = crashmatrix("show", matrix, cwd=tmp_path)
    assert table.returncode == 0 and "9 cells x 1 repeats = 9 runs (pairwise)" in table.stdout
    rows = list(csv.DictReader(io.StringIO(crashmatrix("show", matrix, "--format", "csv", cwd=tmp_path).stdout)))
    assert len(rows) == 9 and list(rows[0])[:3] == ["cell_id", "start_method", "num_workers"]
    cells = json.loads(crashmatrix("show", matrix, "strategy=full", "--format", "json", cwd=tmp_path).stdout)
    assert len(cells) == 3 * 2 * 2 * 2 * 3 * 2 * 2


def test_probes_lists_every_probe_and_its_parameters(tmp_path):
    out = crashmatrix("probes", cwd=tmp_path).stdout
    for name in ("train", "dataloader", "model", "cuda_basics", "ddp", "fault"):
        assert f"\n{name}: " in "\n" + out
    assert "    start_method = " in out and "    kill_rank = -1" in out


@pytest.mark.slow
def test_env_names_the_machine(tmp_path):
    facts = json.loads(crashmatrix("env", "--json", cwd=tmp_path).stdout)
    for key in (
        "host",
        "kernel",
        "wsl2",
        "python",
        "torch",
        "cuda_runtime",
        "cudnn",
        "driver",
        "gpu",
        "cpu_count",
        "ram_gb",
        "shm_mb",
        "rlimit_nofile",
    ):
        assert key in facts
    assert facts["torch"].startswith("2.") and facts["wsl2"] in (True, False)
    human = crashmatrix("env", cwd=tmp_path).stdout
    assert "kernel: " in human and "torch: " in human
