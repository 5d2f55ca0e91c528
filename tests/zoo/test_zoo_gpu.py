"""The zoo's GPU modes: real CUDA failures PyTorch users report, and crashmatrix's row for each.

Each mode's truth (truth_gpu.yaml) was written down from running it alone on a lent NVIDIA H200.
On a machine with CUDA they run for real: one crashmatrix run, 3 repeats, one cell at a time (gpu_leak_oom
takes the whole GPU, and would fail a cell beside it), then resolve; each mode is held to its truth as
test_zoo.py holds the CPU modes. Everywhere else, the run that H200 gave (results/reference/
h200-2026-11-28-zoo-gpu: each cell's stderr and synchronous rerun as CUDA, Triton and PyTorch printed them)
is read again by today's classifier and placed: only the GPU is missing, the text is real.
"""

from __future__ import annotations

import json
import os
import shutil
import signal

import pytest
import yaml
from conftest import ROOT, crashmatrix, has_cuda, rows_of
from test_zoo import APP, TRUTH, _addressee, _identity, _pattern

from crashmatrix.outcome import Outcome
from crashmatrix.verdict import sync_rerun
from crashmatrix.verdict.classify import classify, signed_by_place
from crashmatrix.verdict.exception_place import exception_place, failing_output
from crashmatrix.verdict.sync_rerun import findings

pytestmark = pytest.mark.slow  # the failure zoo's GPU modes

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "truth_gpu.yaml")) as _f:
    GPU_TRUTH: dict = yaml.safe_load(_f)
MODES = sorted(GPU_TRUTH)
RECORDED = os.path.join(ROOT, "results", "reference", "h200-2026-11-28-zoo-gpu")
MATRIX = f"""\
name: zoo-gpu
command: [python, {APP}/main.py]
inject: true
axes:
  mode: {json.dumps(MODES)}
repeats: 3
timeout: 180
"""


@pytest.fixture(scope="module")
def live(tmp_path_factory) -> dict:
    """{mode: {"rows", "issue"}} from a real run on this machine's GPU, resolved."""
    if not has_cuda():
        pytest.skip("needs a CUDA GPU; the recorded H200 run is checked by the tests below")
    base = tmp_path_factory.mktemp("zoo-gpu")
    (base / "gpu.yaml").write_text(MATRIX)
    ran = crashmatrix("run", base / "gpu.yaml", "--out", base / "run", "--jobs", "1", cwd=base, timeout=1200)
    assert ran.returncode == 0, ran.stderr
    resolved = crashmatrix("resolve", base / "run", cwd=base, timeout=600)
    assert resolved.returncode == 0, resolved.stderr
    return _by_mode(base / "run")


def _by_mode(run) -> dict:
    with open(os.path.join(run, "resolution.json")) as f:
        bundles = {b["signature"]: os.path.join(run, b["dir"]) for b in json.load(f)["repro"]}
    found: dict = {}
    for row in rows_of(run):
        entry = found.setdefault(row["mode"], {"rows": [], "issue": None})
        entry["rows"].append(row)
        bundle = bundles.get(row["signature"])
        if bundle is not None and entry["issue"] is None:
            with open(os.path.join(bundle, "ISSUE.md")) as f:
                entry["issue"] = _addressee(f.read())
    return found


def _read(*parts: str) -> str:
    with open(os.path.join(*parts), errors="replace") as f:
        return f.read()


def _read_again(row: dict) -> dict:
    """The row today's classifier gives the recorded cell: its verdict, and its place (a cuda_error's from
    its synchronous rerun's logs, as the engine takes it)."""
    cell = os.path.join(RECORDED, row["log_dir"])
    stderr = _read(cell, "stderr.log")
    returncode = int(row["exit_code"]) if row["exit_code"] else -signal.Signals[row["signal"]].value
    verdict = classify(returncode, stderr=stderr)
    sync = os.path.join(cell, "sync")
    if os.path.isdir(sync):
        where = findings(1, sync, verdict)
    else:
        where = exception_place(failing_output(stderr), oom=verdict.outcome == Outcome.OOM, error=verdict.error)
    verdict = sync_rerun.signed(signed_by_place(verdict, where), where, sync)
    return dict(row, outcome=verdict.outcome.value, signal=verdict.signal, signature=verdict.signature, where=where)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> dict:
    """{mode: {"rows", "issue"}} of the recorded run, each row read again and the run resolved again today
    (resolve reads the run's logs and runs nothing)."""
    run = tmp_path_factory.mktemp("zoo-gpu-recorded") / "run"
    shutil.copytree(RECORDED, run, ignore=shutil.ignore_patterns("repro", "resolution.*"))
    resolved = crashmatrix("resolve", run, cwd=run)
    assert resolved.returncode == 0, resolved.stderr
    found = _by_mode(run)
    for entry in found.values():
        entry["rows"] = [_read_again(row) for row in entry["rows"]]
    return found


def _held_to_its_truth(zoo: dict, mode: str) -> None:
    truth, rows = GPU_TRUTH[mode], zoo[mode]["rows"]
    assert len(rows) == 3
    assert {(r["outcome"], r["signal"]) for r in rows} == {(truth["outcome"], truth.get("signal", ""))}, rows
    signatures = {r["signature"] for r in rows}
    assert len(signatures) == 1, signatures
    assert _pattern(truth["signature"]).match(signatures.pop())
    places = {r["where"] for r in rows}
    assert all(_pattern(truth["where"]).match(p) for p in places), places
    mine = {_identity(r) for r in rows}
    alike = {m for m in MODES if m != mode and mine & {_identity(r) for r in zoo[m]["rows"]}}
    assert not alike, f"{mode} is told as {mine}, as {sorted(alike)} are"
    # nor as any CPU mode's truth is told
    assert not [m for m in TRUTH if _pattern(TRUTH[m]["signature"]).match(rows[0]["signature"])]
    assert zoo[mode]["issue"] == truth["addressee"]


@pytest.mark.parametrize("mode", MODES)
def test_the_recorded_h200_run_read_today_is_the_truth(recorded, mode):
    _held_to_its_truth(recorded, mode)


@pytest.mark.parametrize("mode", MODES)
def test_on_a_gpu_each_mode_is_the_truth(live, mode):
    _held_to_its_truth(live, mode)
