"""Real PyTorch failures reproduced on this CPU machine through the real command line, each in exactly
the cells that should fail, classified by PyTorch's own message."""

import json
import os

import pytest
from conftest import ROOT, can_unshare_mounts, crashmatrix, processes_with, rows_of, run_rows

pytestmark = pytest.mark.slow  # real reproductions


@pytest.mark.skipif(not can_unshare_mounts(), reason="a private /dev/shm needs root and unshare -m")
def test_dataloader_matrix_fails_in_exactly_the_predicted_cells(tmp_path):
    proc = crashmatrix(
        "run",
        os.path.join(ROOT, "matrix", "dataloader.yaml"),
        "axes.start_method=[fork]",
        "axes.pin_memory=[false]",
        # the two failures with workers and their twins through the shipped file; the twins without workers
        # or with file_system sharing pass in test_probes.py, which runs the same probe without the CLI
        "axes.num_workers=[2]",
        "axes.sharing_strategy=[file_descriptor]",
        "--out",
        tmp_path / "run",
        "--jobs",
        "2",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    got = rows_of(tmp_path / "run")
    assert len(got) == 4
    for r in got:
        workers = r["num_workers"] == "2"
        small_shm = r["shm_mb"] == "8"
        fd_starved = r["sharing_strategy"] == "file_descriptor" and r["rlimit.nofile"] == "128"
        cell = {k: r[k] for k in ("num_workers", "sharing_strategy", "rlimit.nofile", "shm_mb")}
        if workers and small_shm:
            assert r["outcome"] == "oom", cell
            assert r["error"].startswith("RuntimeError: unable to allocate shared memory(shm) for file"), r["error"]
            assert "No space left on device" in r["error"]
        elif workers and fd_starved:
            assert r["outcome"] == "fail", cell
            assert r["error"].startswith("RuntimeError: Too many open files."), r["error"]
        else:
            assert r["outcome"] == "pass", (cell, r["error"])
    assert processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}") == []


def test_worker_deaths_by_signal_are_worker_crashes(tmp_path, write):
    # both start methods and both signals, each once (a forked worker's SIGSEGV is also the zoo's
    # loader_worker_segv); spawned workers import torch again
    path = write(
        "w.yaml",
        """\
name: workers
probe: dataloader
params: {num_workers: 2, steps: 3, num_threads: 1}
axes:
  start_method: [fork]
  worker_fault: [bus]
include:
  - {start_method: spawn, worker_fault: segv}
timeout: 120
""",
    )
    proc = crashmatrix("run", path, "--out", tmp_path / "run", "--jobs", "2", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = rows_of(tmp_path / "run")
    assert sorted((r["start_method"], r["worker_fault"]) for r in rows) == [("fork", "bus"), ("spawn", "segv")]
    for r in rows:
        want = {"segv": "SIGSEGV", "bus": "SIGBUS"}[r["worker_fault"]]
        assert (r["outcome"], r["signal"], r["exit_code"]) == ("worker_crash", want, "1"), r
        assert "DataLoader worker (pid" in r["error"] and "is killed by signal" in r["error"]
        # the main process exits normally, so the class must come from stderr: the worker's own words are there
        words = {"segv": "segmentation fault", "bus": "bus error"}[r["worker_fault"]]
        stderr = (tmp_path / "run" / r["log_dir"] / "stderr.log").read_text(errors="replace")
        assert f"ERROR: Unexpected {words} encountered in worker." in stderr


def test_a_ddp_rank_killed_by_a_signal_is_a_rank_crash_and_no_rank_is_left(tmp_path):
    proc = crashmatrix(
        "run",
        os.path.join(ROOT, "matrix", "ddp.yaml"),
        "axes.start_method=[spawn]",
        # SIGBUS: the passing cell and rank 1's SIGSEGV are test_ranks.py's probe run
        "axes.kill_signal=[SIGBUS]",
        "--out",
        tmp_path / "run",
        "--jobs",
        "2",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    (r,) = rows_of(tmp_path / "run")
    assert (r["kill_rank"], r["outcome"], r["signal"], r["rank"]) == ("1", "rank_crash", "SIGBUS", "1"), r
    assert processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}") == []


def test_train_with_spawn_workers_and_real_wandb_offline(tmp_path, write):
    path = write(
        "t.yaml",
        """\
name: train
probe: train
params: {steps: 4, val_steps: 2, image_size: 32, num_threads: 1, data: files}
axes:
  start_method: [spawn]
  num_workers: [2]
  persistent_workers: [true]
  wandb: [offline]
  precision: [bf16-mixed]
timeout: 240
""",
    )
    (r,) = run_rows(path, tmp_path)
    assert r["outcome"] == "pass", r["error"]
    assert int(r["steps"]) == 4 and float(r["first_batch_s"]) > 0 and float(r["final_loss"]) > 0
    cell_dir = tmp_path / "run" / r["log_dir"]
    offline = [d for d in os.listdir(cell_dir / "wandb") if d.startswith("offline-run-")]
    assert len(offline) == 1 and any(f.endswith(".wandb") for f in os.listdir(cell_dir / "wandb" / offline[0]))
    assert processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}") == []  # wandb-core included


def test_a_non_finite_loss_in_a_ddp_rank_is_nan_not_fail(tmp_path, write):
    path = write(
        "n.yaml", "name: ddpnan\nprobe: ddp\nparams: {steps: 4, num_threads: 1}\naxes:\n  nan_rank: [1]\ntimeout: 180\n"
    )
    (r,) = run_rows(path, tmp_path)
    assert (r["outcome"], r["error"]) == ("nan", "rank 1 loss is nan at step 2"), r
    assert processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}") == []


def test_model_and_hardware_probes_as_cells_and_cuda_asked_on_a_cpu_box_is_a_skip(tmp_path, write):
    # No GPU here: device=cuda must end as `skip` with the reason, never as a failure. One precision, the
    # one that needs autocast: precision 32 is every other probe test's default. One cell a probe (both
    # probes' other device is test_probes.py's, without the command line): each cell imports torch.
    for probe, device in (("model", "cpu"), ("cuda_basics", "cuda")):
        path = write(
            f"{probe}.yaml",
            f"name: {probe}\nprobe: {probe}\nparams: {{steps: 2, num_threads: 1}}\n"
            f"axes:\n  device: [{device}]\n  precision: [bf16-mixed]\ntimeout: 120\n",
        )
        proc = crashmatrix("run", path, "--out", tmp_path / probe, "--jobs", "2", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        for r in rows_of(tmp_path / probe):
            cell = tmp_path / probe / r["log_dir"]
            if r["device"] == "cpu":
                assert r["outcome"] == "pass" and int(r["steps"]) == 2, (probe, r)
                metrics = json.loads((cell / "result.json").read_text())["metrics"]
                assert metrics["precision"] == "cpu-autocast-bfloat16", metrics  # bf16-mixed on a CPU: autocast
            else:
                assert r["outcome"] == "skip" and "torch.cuda.is_available() is False" in r["error"], (probe, r)
                said = "crashmatrix: skip: device=cuda but torch.cuda.is_available() is False"
                assert said in (cell / "stderr.log").read_text()  # the probe says why, as the cell ran it
