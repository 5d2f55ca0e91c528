"""Distributed cells on real gloo ranks (DESIGN.md, "Distributed cells"): a hang names its straggler, the
speed columns are rank 0's and peak_rss_mb a rank's, and DDP's own knobs reach every rank's DDP.

Four real runs share one module fixture and run side by side (the hung one mostly waits): torchrun with a
rank that stalls (not injected: py-spy's stacks; mp.spawn's straggler, injected, is the zoo's
spawn_straggler), torchrun training with every DDP knob set, and Lightning's ddp_spawn and ddp. Lightning's
ddp_spawn with rank 0 raising is judged from its recorded stderr in tests/test_ranks.py: its row is all in
what the ranks print."""

import json
import os
import subprocess
import sys
import uuid

import pytest
from conftest import ROOT, crashmatrix, processes_with, rows_of

from crashmatrix.verdict import forensics, straggler
from crashmatrix.verdict.stacks import ProcessStacks, parse_faulthandler

pytestmark = pytest.mark.slow  # distributed ranks that hang

APPS = os.path.join(ROOT, "tests", "apps")
MARK = f"CRASHMATRIX_TEST_RANKS={uuid.uuid4().hex}"
TORCHRUN = ["python", "-m", "torch.distributed.run", "--nproc_per_node=2", "--standalone"]


def _matrix(command, *, inject, timeout, params) -> dict:
    name, value = MARK.split("=")
    return {
        "command": command,
        "pass_params": "none",
        "inject": inject,
        "timeout": timeout,
        "env": {name: value, "OMP_NUM_THREADS": 1},
        "params": params,
        "axes": {"num_threads": [1]},  # a knob under inject; a mere label for the hang, which has none
    }


MATRICES = {
    # Not injected: the straggler is found from torchrun's RANK in each rank's environment alone.
    "hang": _matrix([*TORCHRUN, os.path.join(APPS, "ddp_hang.py")], inject=False, timeout=60, params={}),
    # mp.spawn's straggler (no RANK: ranks known by the order spawn started them) is the zoo's spawn_straggler
    "torchrun": _matrix(
        [*TORCHRUN, os.path.join(APPS, "ddp_knobs_train.py")],
        inject=True,
        timeout=240,
        params={
            "ddp.static_graph": True,
            "ddp.find_unused_parameters": True,
            "ddp.gradient_as_bucket_view": True,
            "ddp.broadcast_buffers": False,
            "ddp.bucket_cap_mb": 5,
        },
    ),
    "ddp_spawn": _matrix(
        ["python", os.path.join(APPS, "lightning_ddp.py")],
        inject=True,
        timeout=240,
        params={"ddp.static_graph": True},  # the app's strategy is ddp_spawn
    ),
    # Lightning's ddp: the main process becomes rank 0 in-process and re-executes the script as rank 1
    "ddp": {
        **_matrix(
            ["python", os.path.join(APPS, "lightning_ddp.py")],
            inject=True,
            timeout=240,
            params={"ddp.static_graph": True, "strategy": "ddp"},
        ),
        "pass_params": "overrides",
    },
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """name -> (the run directory, its one row, its cell's result.json), the runs made side by side."""
    import yaml

    base = tmp_path_factory.mktemp("ranks")
    env = dict(os.environ, PYTHONPATH=ROOT)
    started = {}
    for name, matrix in MATRICES.items():
        (base / f"{name}.yaml").write_text(yaml.safe_dump(matrix))
        started[name] = subprocess.Popen(
            [sys.executable, "-m", "crashmatrix", "run", f"{name}.yaml", "--out", name],
            cwd=base,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    out = {}
    for name, proc in started.items():
        _stdout, stderr = proc.communicate(timeout=400)
        assert proc.returncode == 0, stderr
        (row,) = rows_of(base / name)
        with open(base / name / row["log_dir"] / "result.json") as f:
            out[name] = (base / name, row, json.load(f))
    return out


def _stdout(run) -> str:
    run_dir, row, _result = run
    with open(os.path.join(run_dir, row["log_dir"], "stdout.log")) as f:
        return f.read()


def test_a_hang_names_the_straggler_rank_at_its_place_and_the_rank_waiting_in_a_collective(runs):
    if not forensics.pyspy_path():  # `make` installs it (the forensics extra)
        pytest.skip("the hung cell is not injected: its stacks are py-spy's, and py-spy is not installed")
    run_dir, row, _result = runs["hang"]
    assert row["outcome"] == "timeout"
    assert row["error"] == (
        "timed out after 60 s; rank 1 at ddp_hang.py:20 in main, outside any collective; "
        "rank 0 waits in DDP backward's all_reduce (ddp_hang.py:22)"
    ), row["error"]
    # each rank by its program frame, as every `where` names one; rank 0 after the collective it waits in
    assert row["where"].startswith(
        "rank 1 tests/apps/ddp_hang.py:20 in main; rank 0 in DDP backward's all_reduce at tests/apps/ddp_hang.py:22 in main"
    ), row["where"]
    assert row["rank"] == "1", row  # the straggler is the rank the row is about
    # the ranks' answers to the timeout's SIGTERM (torchrun's shutdown, `DataLoader worker ... killed by
    # signal: Terminated`) come after the hang and do not name it: the hang is told by where it waits
    assert row["signature"].startswith(
        "hang in tests/apps/ddp_hang.py:main; DDP backward's all_reduce at tests/apps/ddp_hang.py:main"
    ), row
    # stacks.txt heads every process with its role: the launcher, each rank, each rank's loader worker
    heads = [line for line in (run_dir / row["log_dir"] / "stacks.txt").read_text().splitlines() if line[:4] == "=== "]
    roles = [head.split("(", 1)[1].split(")", 1)[0] for head in heads]
    assert roles == ["main", "rank 0", "DataLoader worker of rank 0", "rank 1", "DataLoader worker of rank 1"], heads


def test_the_speed_columns_are_rank_0s_and_peak_rss_the_largest_ranks_under_torchrun(runs):
    _run_dir, row, result = runs["torchrun"]
    assert row["outcome"] == "pass", row
    ranks = result["metrics"]["ranks"]
    assert sorted(ranks) == ["0", "1"]
    for key in ("steps", "steps_per_s", "first_batch_s", "first_batch_total_s"):
        assert row[key] != "" and float(row[key]) == pytest.approx(ranks["0"][key]), key
    assert row["steps"] == "12"
    # rank 1 holds 300 MB more: the cell's peak is rank 1's, not torchrun's agent's (about 220 MB)
    assert float(row["peak_rss_mb"]) == ranks["1"]["peak_rss_mb"] > ranks["0"]["peak_rss_mb"] + 250
    assert f"peak_rss_mb {ranks['0']['peak_rss_mb']:g} (rank 0) to {row['peak_rss_mb']} (rank 1)" in row["rank_spread"]


def test_every_ddp_knob_reaches_each_ranks_ddp_under_torchrun(runs):
    printed = sorted(line for line in _stdout(runs["torchrun"]).splitlines() if line.startswith("rank "))
    assert printed == [
        f"rank {r}: static_graph=True find_unused_parameters=True gradient_as_bucket_view=True"
        f" broadcast_buffers=False bucket_bytes_cap={5 * 2**20}"
        for r in (0, 1)
    ]


def test_lightning_ddp_spawn_fills_the_speed_columns_and_its_ddp_gets_the_knob(runs):
    _run_dir, row, result = runs["ddp_spawn"]
    assert row["outcome"] == "pass", row
    ranks = result["metrics"]["ranks"]
    assert sorted(ranks) == ["0", "1"]
    assert row["steps"] == "8" and float(row["steps_per_s"]) == pytest.approx(ranks["0"]["steps_per_s"])
    assert float(row["peak_rss_mb"]) == max(m["peak_rss_mb"] for m in ranks.values())
    printed = sorted(line for line in _stdout(runs["ddp_spawn"]).splitlines() if line.startswith("rank "))
    assert printed == ["rank 0: static_graph=True", "rank 1: static_graph=True"]


def test_lightning_ddp_fills_the_speed_columns_from_the_main_process_made_rank_0(runs):
    _run_dir, row, result = runs["ddp"]
    assert row["outcome"] == "pass", row
    ranks = result["metrics"]["ranks"]
    assert sorted(ranks) == ["0", "1"]
    assert row["steps"] == "8" and float(row["steps_per_s"]) == pytest.approx(ranks["0"]["steps_per_s"])
    assert float(row["peak_rss_mb"]) == max(m["peak_rss_mb"] for m in ranks.values())
    printed = sorted(line for line in _stdout(runs["ddp"]).splitlines() if line.startswith("rank "))
    assert printed == ["rank 0: static_graph=True", "rank 1: static_graph=True"]


def test_no_rank_outlives_its_cell(runs):
    assert processes_with(MARK) == []


@pytest.mark.parametrize(
    "params, override, message",
    [
        (
            "ddp.bucket_cap_mb: abc",
            None,
            "params.ddp.bucket_cap_mb: not a positive number of MB: 'abc' (ddp.bucket_cap_mb takes a number (MB))",
        ),
        (
            "num_threads: 1",
            "+params.ddp.static_graph=maybe",
            "params.ddp.static_graph: not a boolean: 'maybe' (ddp.static_graph takes true | false)",
        ),
    ],
)
def test_a_ddp_knob_value_ddp_refuses_is_one_line_before_any_cell_runs(tmp_path, write, params, override, message):
    matrix = write("m.yaml", f"command: [python, -c, 'print(1)']\ninject: true\nparams:\n  {params}\n")
    proc = crashmatrix("run", matrix, "--out", tmp_path / "run", *([override] if override else []), cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [f"crashmatrix: {matrix}: {message}"]
    assert not (tmp_path / "run" / "results.csv").exists()


def _dumped(pid: int, *frames: tuple[str, int, str]) -> ProcessStacks:
    """A process whose main thread's faulthandler dump holds these frames, innermost first."""
    text = "Current thread 0x00007f5ef460fb80 (most recent call first):\n" + "".join(
        f'  File "{path}", line {line} in {func}\n' for path, line, func in frames
    )
    return ProcessStacks(pid, "python train.py", faulthandler=text, threads=parse_faulthandler(text))


C10D = "/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py"


@pytest.mark.parametrize(
    "rank1, error",
    [
        # both in one collective: nobody straggles, and they are told as one
        (
            [(C10D, 2950, "all_reduce"), ("/home/u/train.py", 63, "main")],
            "every rank waits in a collective; ranks 0, 1 wait in all_reduce (train.py:63)",
        ),
        # rank 1 gave no stacks (no inject, no py-spy): it is not called the straggler
        ([], "rank 0 waits in all_reduce (train.py:63); rank 1: no stacks"),
    ],
)
def test_ranks_all_in_a_collective_or_without_stacks_name_no_straggler(rank1, error):
    rank0 = _dumped(10, (C10D, 2950, "all_reduce"), ("/home/u/train.py", 63, "main"))
    other = _dumped(11, *rank1) if rank1 else ProcessStacks(11, "python train.py")
    assert straggler.summarize([straggler.state(rank0, 0), straggler.state(other, 1)], [])[0] == error
