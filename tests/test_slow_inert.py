"""A slow finding over knobs the machine ignores (issue 50: pin_memory's thread on a CPU-only box): on a machine
without an accelerator torch turns pin_memory off, warns, and starts no pinning thread, and cuDNN's flags touch
nothing; cells that differ only there ran the same program, so a slow finding over them says it cannot be the
knob, and resolve does not tell the user to avoid it.

The machine's side is proven on this box (no accelerator) by a real DataLoader below; the finder's on a planted
table beside an env.json as `crashmatrix run` writes it.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import pytest
from conftest import crashmatrix

from crashmatrix.answers import explain
from crashmatrix.answers.slow import find_slow
from crashmatrix.answers.slow_why import INERT

AXES = ["pin_memory", "cudnn.benchmark"]
CPU_BOX = {"host": "vm", "torch": "2.13.0+cpu", "cuda_available": False, "cpu_count": 2}
GPU_BOX = {"host": "gpu1", "torch": "2.13.0+cu128", "cuda_available": True, "cpu_count": 16}


@pytest.mark.slow  # one process importing torch
def test_on_a_box_without_an_accelerator_pin_memory_starts_no_thread_and_torch_says_so():
    program = (
        "import threading, warnings, torch\n"
        "from torch.utils.data import DataLoader\n"
        "with warnings.catch_warnings(record=True) as said:\n"
        "    warnings.simplefilter('always')\n"
        "    it = iter(DataLoader(list(range(8)), batch_size=2, num_workers=1, pin_memory=True))\n"
        "    next(it)\n"
        "print(torch.cuda.is_available(), it._pin_memory, [t.name for t in threading.enumerate()])\n"
        "print(*[str(w.message) for w in said], sep='\\n')\n"
    )
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    first, *warned = out.stdout.splitlines()
    assert first.startswith("False False ") and "pin" not in first.split(" ", 2)[2].lower(), first
    assert any("pin_memory' argument is set as true but no accelerator is found" in w for w in warned), warned


def _run_dir(tmp_path, machine: dict, host: str | None = None):
    walls = {("true", "false"): 9.0, ("true", "true"): 9.4, ("false", "false"): 3.0, ("false", "true"): 3.1}
    rows = [
        {
            "cell_id": f"{pin}-{bench}",
            "repeat": str(r),
            "pin_memory": pin,
            "cudnn.benchmark": bench,
            "outcome": "pass",
            "duration_s": str(wall + r / 10),
            "host": host or machine["host"],
        }
        for (pin, bench), wall in walls.items()
        for r in range(2)
    ]
    with open(tmp_path / "results.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    (tmp_path / "env.json").write_text(json.dumps(machine))
    return rows


def test_a_slow_pin_memory_on_a_box_without_an_accelerator_cannot_be_the_knob(tmp_path):
    rows = _run_dir(tmp_path, CPU_BOX)
    (slow,) = find_slow(rows, AXES, explain.explain, run_dir=str(tmp_path))
    assert slow.conditions == (("pin_memory", "true"),)
    assert slow.why is not None and slow.why.cause == INERT
    assert "repeats vary by up to 1.03×)" in slow.text()  # 3.1 s against 3.0 s: not `1×`
    assert slow.text().endswith(
        "; but pin_memory=true cannot be why: torch finds no accelerator here, so it turns pin_memory off (with a "
        "warning) and starts no pinning thread. These cells ran as the others did; their time is something "
        "else's (a machine busy with other work, caches cold for the first cells) or noise"
    ), slow.text()


@pytest.mark.parametrize("machine, host", [(GPU_BOX, None), (CPU_BOX, "node7"), ({}, "vm")])
def test_on_a_gpu_box_or_another_node_or_no_fingerprint_it_claims_nothing(tmp_path, machine, host):
    rows = _run_dir(tmp_path, machine or CPU_BOX, host)
    if not machine:
        (tmp_path / "env.json").unlink()
    (slow,) = find_slow(rows, AXES, explain.explain, run_dir=str(tmp_path))
    assert slow.why is None or slow.why.cause != INERT


def test_explain_says_it_and_resolve_does_not_say_to_avoid_it(tmp_path):
    _run_dir(tmp_path, CPU_BOX)
    told = crashmatrix("explain", ".", cwd=tmp_path)
    assert told.returncode == 0, told.stderr
    assert "when pin_memory=true" in told.stdout and "cannot be why: torch finds no accelerator" in told.stdout
    resolved = crashmatrix("resolve", ".", cwd=tmp_path)
    assert resolved.returncode == 0, resolved.stderr
    assert "avoid:" not in resolved.stdout, resolved.stdout
    with open(tmp_path / "resolution.json") as f:
        assert json.load(f)["avoid"] == []
