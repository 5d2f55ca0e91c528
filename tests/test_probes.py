"""The probes, each run for real in a fresh process by the cell's own child (`python -m crashmatrix.child
cell.json`, as engine.build_launch starts it): a Skip, a NonFinite or a real crash surfaces the way a
user would see it (report.json, stderr.log, exit status). Small steps and images throughout: the whole
file must stay quick on 2 cores.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from conftest import can_unshare_mounts

ROOT = Path(__file__).resolve().parents[1]

# Every cell: one intra-op thread (the box is small and shared; more threads only contend).
BASE = {"num_threads": 1}


def run_probe(name: str, params: dict, tmp_path: Path, timeout: float = 120, tag: str | None = None):
    """Run probe `name` through crashmatrix.child with cwd=tmp_path (the cell's folder), as the engine does.

    Returns (rc, report, stdout, stderr): report is the child's report.json ({"status": "ok", "metrics":
    ...}, "skip"/"nan" with the reason), None when the process died before writing it.
    """
    report = tmp_path / "report.json"
    spec = tmp_path / "cell.json"
    spec.write_text(json.dumps({"probe": name, "params": {**BASE, **params}, "report": str(report)}))
    env = dict(os.environ)
    env.update(
        PYTHONPATH=str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""),
        CRASHMATRIX_CELL_DIR=str(tmp_path),
        CRASHMATRIX_REPORT=str(report),
        WANDB_DIR=str(tmp_path),
        WANDB_CACHE_DIR=str(tmp_path / "wandb-cache"),
        WANDB_CONFIG_DIR=str(tmp_path / "wandb-config"),
        WANDB_DATA_DIR=str(tmp_path / "wandb-data"),
        WANDB_SILENT="true",
        CRASHMATRIX_TEST_TAG=tag or "",
    )
    env.pop("WANDB_MODE", None)  # the probe's `wandb` parameter decides
    proc = subprocess.run(
        [sys.executable, "-m", "crashmatrix.child", str(spec)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        timeout=timeout,
    )
    # torch's worker signal handler writes its message with the trailing NUL
    stdout = proc.stdout.decode(errors="replace")
    stderr = proc.stderr.decode(errors="replace").replace("\0", "")
    written = json.loads(report.read_text()) if report.exists() else None
    return proc.returncode, written, stdout, stderr


def metrics_of(name: str, params: dict, tmp_path: Path, **kwargs) -> tuple[dict, str]:
    """(metrics, stderr) of a probe run that must pass."""
    rc, report, _, err = run_probe(name, params, tmp_path, **kwargs)
    assert rc == 0 and report is not None and report["status"] == "ok", (rc, report, err[-2000:])
    return report["metrics"], err


def processes_tagged(tag: str) -> list[int]:
    """PIDs of live processes whose environment carries CRASHMATRIX_TEST_TAG=tag."""
    needle = f"CRASHMATRIX_TEST_TAG={tag}".encode()
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                if f.read().rsplit(b")", 1)[1].split()[0] == b"Z":  # a zombie holds nothing
                    continue
            with open(f"/proc/{entry}/environ", "rb") as f:
                if needle in f.read().split(b"\0"):
                    pids.append(int(entry))
        except OSError:
            continue
    return pids


COMMON_METRICS = {
    "steps",
    "steps_per_s",
    "first_batch_s",
    "first_batch_total_s",
    "final_loss",
    "peak_rss_mb",
    "peak_gpu_mb",
}


# ------------------------------------------------------------------ the interface


def test_the_workload_probes_document_the_common_params_without_importing_torch():
    code = (
        "import sys, json, probes\n"
        "from crashmatrix.matrix import knob_names\n"
        "out = {}\n"
        "for n in ['train', 'dataloader', 'cuda_basics', 'model', 'ddp']:\n"
        "    m = probes.load(n)\n"
        "    out[n] = {'missing': [k for k in knob_names.COMMON_PARAMS if k not in m.PARAMS],\n"
        "              'desc': m.DESCRIPTION, 'main': callable(m.main)}\n"
        "print(json.dumps({'torch': 'torch' in sys.modules, 'probes': out}))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["torch"] is False, "importing the probes must not import torch"
    for name, info in report["probes"].items():
        assert info["missing"] == [], f"{name} lacks {info['missing']}"
        assert info["desc"] and info["main"]


# --------------------------------------------------------------- hardware and model
# cuda_basics on a CPU box asked for cuda (a skip with its reason), and the model probe in bf16-mixed on a CPU
# (autocast), run as cells: test_reproductions.py's probes-as-cells test.


@pytest.mark.slow
def test_cuda_basics_runs_on_cpu(tmp_path):
    m, _ = metrics_of("cuda_basics", {"device": "cpu", "steps": 2}, tmp_path)
    assert COMMON_METRICS <= set(m) and m["steps"] == 2 and m["device"] == "cpu"


# ---------------------------------------------------------------------- train


@pytest.mark.slow
def test_train_plain(tmp_path):
    m, _ = metrics_of("train", {"steps": 4, "val_steps": 1, "image_size": 32}, tmp_path)
    assert COMMON_METRICS <= set(m)
    assert m["steps"] == 4 and m["final_loss"] > 0 and m["wandb"] == "disabled"


@pytest.mark.slow
def test_train_workers_files_and_wandb_offline_write_a_run(tmp_path):
    params = {
        "steps": 4,
        "val_steps": 2,
        "image_size": 32,
        "num_workers": 2,
        "start_method": "fork",
        "pin_memory": True,
        "persistent_workers": True,
        "prefetch_factor": 4,
        "data": "files",
        "samples": 32,
        "wandb": "offline",
    }
    tag = uuid.uuid4().hex
    m, err = metrics_of("train", params, tmp_path, tag=tag)
    assert m["num_workers"] == 2 and m["start_method"] == "fork"
    assert m["pin_memory_effective"] is False  # no accelerator here: torch warns and does not pin
    assert "no accelerator is found" in err
    runs = list((tmp_path / "wandb").glob("offline-run-*"))
    assert len(runs) == 1 and m["wandb_run_dir"] == str(runs[0])
    assert list(runs[0].glob("*.wandb")), "the offline run has no .wandb data file"
    assert m["wandb_image_mode"] in ("image", "histogram")
    assert list(tmp_path.glob("data-*/image_00000.npy")), "data=files wrote no samples under the cwd"
    # wandb-core runs in its own session; wandb.finish() must have let it go
    deadline = time.monotonic() + 10
    while processes_tagged(tag) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert processes_tagged(tag) == []


@pytest.mark.slow
def test_inject_nan_ends_as_nonfinite(tmp_path):
    rc, report, _, err = run_probe("train", {"steps": 4, "image_size": 32, "inject_nan_at": 1}, tmp_path)
    assert rc == 1 and report == {"status": "nan", "reason": "loss is nan at step 1"}, (rc, report, err)
    assert "crashmatrix: non-finite: loss is nan at step 1" in err


# ------------------------------------------------------------------ data path failures

FD_CELL = {
    "sharing_strategy": "file_descriptor",
    "rlimit.nofile": 128,
    "num_workers": 2,
    "prefetch_factor": 8,
    "hold_batches": -1,
    "steps": 40,
    "tensors_per_sample": 8,
    "tensor_kb": 16,
}


@pytest.mark.slow
def test_fd_exhaustion_fails_with_too_many_open_files(tmp_path):
    rc, report, _, err = run_probe("dataloader", FD_CELL, tmp_path)
    assert rc == 1 and report is None, err
    assert "Too many open files" in err or "received 0 items of ancdata" in err, err[-2000:]


@pytest.mark.parametrize(
    "twin", [{"sharing_strategy": "file_system"}, {"rlimit.nofile": 4096}], ids=["file_system", "high_nofile"]
)
@pytest.mark.slow
def test_fd_cell_twins_pass(tmp_path, twin):
    tag = uuid.uuid4().hex
    m, _ = metrics_of("dataloader", {**FD_CELL, **twin}, tmp_path, tag=tag)
    assert m["held_batches"] == 40 and m["sharing_strategy"] == twin.get("sharing_strategy", "file_descriptor")
    # file_system starts torch_shm_manager; it must not outlive the cell
    assert processes_tagged(tag) == []


@pytest.mark.skipif(not can_unshare_mounts(), reason="needs root (a private mount namespace for /dev/shm)")
@pytest.mark.slow
def test_small_shm_fails_in_the_worker(tmp_path):
    # 4 samples x 4 tensors x 1 MiB = 16 MiB per batch against an 8 MiB /dev/shm
    rc, report, _, err = run_probe(
        "dataloader",
        {"shm_mb": 8, "num_workers": 2, "tensor_kb": 1024, "tensors_per_sample": 4, "batch_size": 4, "steps": 4},
        tmp_path,
    )
    assert rc == 1 and report is None
    # torch allocates shm with posix_fallocate, so a full /dev/shm is ENOSPC in the worker, not SIGBUS
    assert "unable to allocate shared memory(shm) for file" in err, err[-2000:]
    assert "No space left on device" in err


@pytest.mark.slow
def test_the_rate_counts_from_the_loaders_start_and_few_batches_give_none(tmp_path):
    params = {"num_workers": 2, "start_method": "spawn", "batch_size": 4, "tensor_kb": 4}
    m, _ = metrics_of("dataloader", {**params, "steps": 16}, tmp_path)
    # One pass of 16 batches: spawned workers' start-up is inside the rate, so it cannot beat
    # 16 batches in the time the first batch alone took.
    assert m["first_batch_s"] > 0 and 0 < m["steps_per_s"] <= 16 / m["first_batch_s"], m
    # too few batches for a rate, whatever starts the workers (forked ones do not import torch again)
    few, _ = metrics_of("dataloader", {**params, "start_method": "fork", "steps": 4}, tmp_path)
    assert few["steps_per_s"] is None and few["first_batch_s"] > 0, few


# A DataLoader worker's segfault, which only stderr tells (the main exits normally): test_reproductions.py's worker
# deaths, both signals, with the worker's own line.

# -------------------------------------------------------------------------- DDP
# The ddp probe's own run (2 gloo ranks, its metrics, no scratch folder left) is test_ranks.py's probe run.


def test_the_childs_last_exit_handler_finalizes_the_probes_garbage_then_freezes_the_rest():
    # run in this process: the probe child's last atexit handler, which spares the interpreter's own
    # teardown a trace of torch's whole heap (bench numbers in the commit that added it)
    import gc

    from crashmatrix import child

    finalized = []

    class Cyclic:
        def __del__(self):
            finalized.append(True)

    garbage = Cyclic()
    garbage.itself = garbage
    del garbage
    try:
        child._collect_then_freeze()
        assert finalized == [True]  # garbage a probe leaves is finalized, as at exit
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
