"""Distributed cells: the rank that failed first is the verdict, never its victims (DESIGN.md, "Distributed cells").

Real programs with 2 gloo ranks on CPU, launched as users launch them: a Hydra + Lightning app with
strategy=ddp swept by hydra/launcher=crashmatrix (tests/apps/lightning_ddp), and the built-in ddp probe
(torch.multiprocessing.spawn), whose small matrix explain, hunt, bisect and resolve answer; then the
reading of torchrun's own words. tests/apps/ddp_train.py's rank faults under torchrun and mp.spawn are
tests/test_repro_ranks.py's and the zoo's (tests/zoo). Each launcher's cells run once per module, shared by the
assertions; each fault strikes at step 1 (after one all-reduced step).
"""

import json
import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, crashmatrix, one_injected_cell, processes_with, rows_of

pytestmark = pytest.mark.slow  # torchrun and Lightning ranks

APPS = os.path.join(ROOT, "tests", "apps")
LIGHTNING = os.path.join(APPS, "lightning_ddp", "train.py")
BIN = os.path.dirname(sys.executable)  # torchrun, the console script, is beside the interpreter
ENV = {"PATH": BIN + os.pathsep + os.environ.get("PATH", "")}


def _run(tmp_path_factory, name: str, matrix: str, *args) -> tuple[dict, str]:
    """`crashmatrix run` of a matrix; the rows by their `fault`, and the run directory."""
    base = tmp_path_factory.mktemp(name)
    path = base / "m.yaml"
    path.write_text(matrix)
    out = base / "run"
    proc = crashmatrix("run", path, "--out", out, "--jobs", "2", *args, cwd=base, env=ENV)
    assert proc.returncode == 0, proc.stderr
    assert processes_with(f"CRASHMATRIX_RUN_DIR={out}") == []  # no rank outlives its cell
    return {r.get("fault") or r.get("kill_rank"): r for r in rows_of(out)}, str(out)


# A rank that raises under torchrun and mp.spawn without inject (stderr alone tells) is
# tests/test_repro_ranks.py's run; under the console script with inject, the zoo's (tests/zoo).


@pytest.fixture(scope="module")
def lightning(tmp_path_factory):
    """The Hydra + Lightning app (strategy=ddp, devices=2 on CPU) swept by `python train.py -m
    hydra/launcher=crashmatrix` (its own sitecustomize in every rank, as under inject); the sweep directory."""
    base = tmp_path_factory.mktemp("lightning")
    shutil.copytree(os.path.dirname(LIGHTNING), base / "app")
    sweep = base / "sweep"
    proc = subprocess.run(
        [sys.executable, "train.py", "-m", "hydra/launcher=crashmatrix", "hydra.launcher.jobs=2"]
        + [f"hydra.sweep.dir={sweep}", "fault=raise:0,segv_peer_busy:1,segv:0"],
        cwd=base / "app",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stderr  # as Hydra's basic launcher ends a sweep whose job failed
    assert processes_with(f"CRASHMATRIX_RUN_DIR={sweep}") == []
    return str(sweep)


def test_lightning_ddp_under_hydras_crashmatrix_launcher(lightning):
    rows = {r["fault"]: r for r in rows_of(lightning)}
    r = rows["raise:0"]
    assert (r["outcome"], r["rank"], r["error"]) == ("fail", "0", "ValueError: bad batch on rank 0"), r
    assert r["where"] == "train.py:46 in training_step"  # from the app's root: its copy's folder
    # rank 1 segfaults while rank 0 is outside any collective: Lightning's child observer SIGKILLs the job's
    # own process (rank 0), which is the cell's death; the row is rank 1's segfault, not its victim's SIGKILL
    r = rows["segv_peer_busy:1"]
    assert (r["outcome"], r["signal"], r["rank"]) == ("rank_crash", "SIGSEGV", "1"), r
    assert r["where"].endswith("train.py:48 in training_step"), r["where"]
    # Lightning's ddp makes the job's own process rank 0: its death by a signal is that rank's
    r = rows["segv:0"]
    assert (r["outcome"], r["signal"], r["rank"]) == ("rank_crash", "SIGSEGV", "0"), r
    # Lightning starts rank 1 by running sys.argv again: it joined its job, and never re-ran the sweep.
    for job in ("0", "1", "2"):
        assert "train_ddp_process_1.log" in os.listdir(os.path.join(lightning, job))
    assert not [name for name in os.listdir(lightning) if name.startswith("crashmatrix-earlier")]


def test_report_and_junit_say_the_rank(lightning):
    junit = crashmatrix("report", lightning, "--format", "junit", cwd=lightning)
    assert junit.returncode == 0, junit.stderr
    assert 'message="rank_crash SIGSEGV (rank 1): Fatal Python error: Segmentation fault"' in junit.stdout
    assert 'message="fail (rank 0): ValueError: bad batch on rank 0"' in junit.stdout
    explained = crashmatrix("explain", lightning, cwd=lightning)
    # no job passed (rank 0 and rank 1 each segfault in one), so the crash is named with both its ranks
    assert "rank_crash SIGSEGV (ranks 0, 1) in 2 of 3 cells" in explained.stdout, explained.stdout
    assert (
        "fail ValueError: bad batch on rank N in train.py:training_step (rank 0) when fault=raise:0" in explained.stdout
    )


# ---------------------------------------------------------------- the ddp probe: explain, hunt, bisect, resolve

PROBE_MATRIX = """\
name: ddpranks
probe: ddp
params: {steps: 3, num_threads: 1, image_size: 16, width: 4, batch_size: 2, kill_step: 1}
axes:
  kill_rank: [-1, 1]
timeout: 120
"""


@pytest.fixture(scope="module")
def probe_run(tmp_path_factory):
    return _run(tmp_path_factory, "probe", PROBE_MATRIX)[1]


def test_the_ddp_probe_killed_rank_is_a_rank_crash(probe_run):
    got = {r["kill_rank"]: r for r in rows_of(probe_run)}
    assert got["-1"]["outcome"] == "pass", got["-1"]
    # the passing cell trained on both gloo ranks, and its ranks' scratch folder went with them
    cell = os.path.join(probe_run, got["-1"]["log_dir"])
    with open(os.path.join(cell, "result.json")) as f:
        metrics = json.load(f)["metrics"]
    assert (metrics["world_size"], metrics["backend"], metrics["steps"]) == (2, "gloo", 3), metrics
    assert not [name for name in os.listdir(cell) if name.startswith("ddp-")], os.listdir(cell)
    r = got["1"]
    assert (r["outcome"], r["signal"], r["rank"], r["error"]) == (
        "rank_crash",
        "SIGSEGV",
        "1",
        "Fatal Python error: Segmentation fault",
    )


def test_explain_and_resolve_name_the_rank(probe_run):
    explained = crashmatrix("explain", probe_run, "--json", cwd=probe_run)
    (entry,) = json.loads(explained.stdout)
    assert (entry["conditions"], entry["outcome"], entry["signal"], entry["ranks"]) == (
        {"kill_rank": "1"},
        "rank_crash",
        "SIGSEGV",
        [1],
    )
    said = crashmatrix("explain", probe_run, cwd=probe_run).stdout
    assert said.startswith("rank_crash SIGSEGV (rank 1) when kill_rank=1 (1 of 1 matching)"), said
    resolved = crashmatrix("resolve", probe_run, cwd=probe_run)
    assert resolved.returncode == 0, resolved.stderr
    assert "cause: rank_crash SIGSEGV (rank 1) when kill_rank=1" in resolved.stdout, resolved.stdout
    assert "run instead: kill_rank=-1" in resolved.stdout, resolved.stdout
    # its folder: the signature, signed with the program's frame (killed_by_signal in probes/ddp.py:_train_rank)
    with open(os.path.join(probe_run, "repro", "killed_by_signal-in-probes-ddp.py-_train_rank", "ISSUE.md")) as f:
        issue = f.read()
    assert "Rank 1 of the distributed job died by SIGSEGV first" in issue


def test_bisect_and_hunt_find_the_killed_rank(probe_run, tmp_path):
    bisected = crashmatrix("bisect", probe_run, "--repeats", "1", "--out", tmp_path / "b", cwd=tmp_path, env=ENV)
    assert bisected.returncode == 0, bisected.stdout + bisected.stderr
    with open(tmp_path / "b" / "bisect.json") as f:
        answer = json.load(f)
    assert (answer["minimal"], answer["outcome"], answer["signal"]) == ({"kill_rank": "1"}, "rank_crash", "SIGSEGV")
    assert answer["ranks"] == [1]
    assert "the failure was rank 1's" in bisected.stdout
    matrix = tmp_path / "m.yaml"
    matrix.write_text(PROBE_MATRIX)
    hunted = crashmatrix(
        "hunt",
        matrix,
        "--from",
        probe_run,
        "--order",
        "1",
        "--confidence",
        "0.8",
        "--max-runs",
        "1",
        "--out",
        tmp_path / "h",
        cwd=tmp_path,
    )  # the run's rows are the evidence; at most one more run
    assert hunted.returncode == 0, hunted.stdout + hunted.stderr
    assert "\nrank_crash SIGSEGV (rank 1) when kill_rank=1: fails 100% of runs there" in hunted.stdout, hunted.stdout
    with open(tmp_path / "h" / "hunt.json") as f:
        (cause,) = json.load(f)["causes"]
    assert (cause["conditions"], cause["outcome"], cause["ranks"]) == ({"kill_rank": "1"}, "rank_crash", [1])


# ---------------------------------------------------------------- the reading itself, on torchrun's real words

TORCHRUN_REPORT = """\
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
============================================================
train.py FAILED
------------------------------------------------------------
Failures:
[1]:
  time      : 2026-11-26_07:45:37
  host      : localhost
  rank      : {other} (local_rank: {other})
  exitcode  : {other_code} (pid: 12694) ({other_sig})
  error_file: <N/A>
  traceback : Signal {other_number} ({other_sig}) received by PID 12694
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-11-26_07:45:37
  host      : localhost
  rank      : {root} (local_rank: {root})
  exitcode  : 1 (pid: 12695)
  error_file: <N/A>
  traceback : {root_message}
============================================================
"""


def torchrun_report(victim: int, victim_signal: str, root: int, root_message: str) -> str:
    """torchrun's ChildFailedError: `victim` died by a signal, `root` (its "Root Cause") exited 1."""
    number = {"SIGSEGV": 11, "SIGTERM": 15}[victim_signal]
    return TORCHRUN_REPORT.format(
        other=victim,
        other_code=-number,
        other_number=number,
        other_sig=victim_signal,
        root=root,
        root_message=root_message,
    )


GLOO = (
    "[rank0]: Traceback (most recent call last):\n"
    '[rank0]:   File "/w/train.py", line 49, in train\n'
    "[rank0]: RuntimeError: [../gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:46992.\n"
)
SEGV_DUMP = (
    "Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f630f20fb80 (most recent call first):\n"
    '  File "/w/train.py", line 48 in train\n\nExtension modules: torch._C (total: 1)\n'
)


def test_the_first_failure_wins_over_torchruns_tied_root_cause():
    # torchrun's timestamps have one-second resolution: on a tie its "Root Cause" is whichever rank it listed
    # first, here rank 0, whose gloo error followed rank 1's segfault.
    from crashmatrix.verdict.classify import classify

    elastic = "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"
    report = torchrun_report(1, "SIGSEGV", 0, elastic)
    v = classify(1, stderr=SEGV_DUMP + GLOO + report)
    assert (v.outcome.value, v.signal, v.rank, v.error) == (
        "rank_crash",
        "SIGSEGV",
        1,
        "Fatal Python error: Segmentation fault",
    )
    victim_only = classify(1, stderr=GLOO + torchrun_report(1, "SIGTERM", 0, elastic))
    assert (victim_only.outcome.value, victim_only.rank) == ("fail", 0)  # nothing else failed: the gloo error it is


def test_an_error_file_traceback_in_torchruns_report_is_the_ranks_own_line():
    from crashmatrix.verdict.classify import classify

    message = (
        "Traceback (most recent call last):\n"
        '    File "/w/train.py", line 46, in train\n'
        '      raise ValueError(f"bad batch on rank {rank}")\n'
        "  ValueError: bad batch on rank 1"
    )
    report = torchrun_report(0, "SIGTERM", 1, message)
    v = classify(1, stderr=report)
    assert (v.outcome.value, v.rank, v.error) == ("fail", 1, "ValueError: bad batch on rank 1")


@pytest.mark.parametrize(
    "override,where,says",
    [
        (
            "+params.world_size=two",
            "params.world_size: two",
            "world_size takes auto or a whole number of ranks, 1 or more",
        ),
        ("axes.kill_rank=[last]", "axes.kill_rank: last", "kill_rank takes a rank (0, 1, ...) or -1 for none"),
        (
            "+params.kill_signal=SIGFOO",
            "params.kill_signal: SIGFOO",
            "kill_signal takes a signal's name or number (SIGSEGV, SIGBUS, 11)",
        ),
    ],
)
def test_a_value_the_ddp_probe_refuses_is_one_line_and_exit_2(tmp_path, override, where, says):
    (tmp_path / "m.yaml").write_text(PROBE_MATRIX)
    proc = crashmatrix("run", tmp_path / "m.yaml", override, "--out", tmp_path / "run", cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == f"crashmatrix: {tmp_path / 'm.yaml'}: {where}: {says}\n"
    assert not (tmp_path / "run").exists()


LIGHTNING_DDP_SPAWN = """\
W1126 07:48:09.006000 16245 torch/multiprocessing/spawn.py:165] Terminating process 16326 via signal SIGTERM
[rank: 1] Received SIGTERM: 15
Process SpawnProcess-2:
Traceback (most recent call last):
  File "/v/torch/autograd/graph.py", line 979, in _engine_run_backward
RuntimeError: [/p/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:29365. This is typically caused by a remote worker crashing.

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/v/torch/distributed/distributed_c10d.py", line 3151, in broadcast
RuntimeError: [/p/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:29365. This is typically caused by a remote worker crashing.
Error executing job with overrides: ['trainer.strategy=ddp_spawn', 'fault=raise:0']
Traceback (most recent call last):
  File "/w/train.py", line 63, in main
    trainer.fit(Model(cfg.fault))
  File "/v/torch/multiprocessing/spawn.py", line 211, in join
    raise ProcessRaisedException(msg, error_index, failed_process.pid)
torch.multiprocessing.spawn.ProcessRaisedException:

-- Process 0 terminated with the following error:
Traceback (most recent call last):
  File "/v/torch/multiprocessing/spawn.py", line 87, in _wrap
    fn(i, *args)
  File "/w/train.py", line 39, in training_step
    raise ValueError(f"bad batch on rank {self.global_rank}")
ValueError: bad batch on rank 0


Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.
"""


def test_lightning_ddp_spawn_rank_0_is_the_verdict_not_rank_1s_broken_connection():
    # Lightning's ddp_spawn under Hydra, as it printed here (trimmed): rank 1's gloo error comes first in
    # stderr, but it is a reaction; torch.multiprocessing names process 0's ValueError.
    from crashmatrix.verdict.classify import classify

    v = classify(1, stderr=LIGHTNING_DDP_SPAWN)
    assert (v.outcome.value, v.rank, v.error) == ("fail", 0, "ValueError: bad batch on rank 0")


def test_lightning_ddp_spawn_rank_0_raising_is_the_row_with_its_place(tmp_path):
    # The row a live run of tests/apps/lightning_ddp/train.py (trainer.strategy=ddp_spawn fault=raise:0) gave
    # is all in what its ranks printed: the recorded stderr above, diagnosed as a cell's stderr.log (a live
    # cell cost 18 CPU-s: Lightning in three processes). Its place is rank 0's raise, not rank 1's broadcast.
    from crashmatrix.resolve.diagnose import diagnose
    from crashmatrix.resolve.log_text import read_logs

    log = tmp_path / "stderr.log"
    log.write_text(LIGHTNING_DDP_SPAWN)
    row = diagnose(read_logs([str(log)])).row
    assert (row["outcome"], row["signal"], row["rank"]) == ("fail", "", "0"), row
    assert row["error"] == "ValueError: bad batch on rank 0", row
    assert row["where"] == "train.py:39 in training_step", row


# ---------------------------------------------------------------- a rank that ended while its peers trained

# tests/apps/ddp_uneven.py uneven=shard under torchrun, without inject (the agent's own frames cut): rank 1
# drew its 5 batches and exited 0; rank 0's 6th backward lost the connection. torchrun's "Root Cause" is
# rank 0, and no line of torchrun's names rank 1.
UNEVEN_TORCHRUN = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/work/wt/ddp/tests/apps/ddp_uneven.py", line 65, in steps
[rank0]:     loss.backward()  # DDP's all_reduce of the gradients: where rank 0 finds rank 1 gone
[rank0]:     ^^^^^^^^^^^^^^^
[rank0]:   File "/work/wt/ddp/.venv/lib/python3.11/site-packages/torch/autograd/graph.py", line 979, in _engine_run_backward
[rank0]:     return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass
[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by \
peer [127.0.0.1]:20702. This is typically caused by a remote worker crashing. Check the logs of the remote worker \
before reporting an error. GLHF! 🏖️
E1127 07:25:48.492000 20561 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) local_rank: \
0 (pid: 20714) of binary: /work/wt/ddp/.venv/bin/python
Traceback (most recent call last):
  File "/work/wt/ddp/.venv/bin/torchrun", line 8, in <module>
    sys.exit(main())
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
============================================================
/work/wt/ddp/tests/apps/ddp_uneven.py FAILED
------------------------------------------------------------
Failures:
  <NO_OTHER_FAILURES>
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-11-27_07:25:48
  host      : localhost
  rank      : 0 (local_rank: 0)
  exitcode  : 1 (pid: 20714)
  error_file: <N/A>
  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html
============================================================
"""


def _recorded(*ranks):
    """(rank, ended, steps) -> what the recorder keeps; pids 100 + rank."""
    from crashmatrix.verdict.ranks import Recorded

    return [Recorded(100 + rank, rank, ended, steps) for rank, ended, steps in ranks]


@pytest.mark.parametrize(
    "recorded,error,rank",
    [
        # under inject: the recorder saw rank 1 end first, after 5 DDP steps; rank 0 ended later, at its 6th
        (((0, 20.5, 6), (1, 20.0, 5)), "rank 1 ended (exit 0) after 5 steps; rank 0 was at step 6", 1),
        # a peer still running when the cell ended (no end written): at step 6 all the same
        (((0, None, 6), (1, 20.0, 5)), "rank 1 ended (exit 0) after 5 steps; rank 0 was at step 6", 1),
        # rank 1's destroy_process_group closed its sockets before its exit wrote its end: the victim wrote first
        (((0, 19.9, 6), (1, 20.0, 5)), "rank 1 ended (exit 0) after 5 steps; rank 0 was at step 6", 1),
        # no recorder: which rank is not told, only that a peer ended without a failure of its own
        (
            (),
            "a peer of rank 0 ended (exit 0) while rank 0 still trained, which lost its connection; no launcher "
            "names another rank's failure (inject: true tells which rank, after how many steps)",
            None,
        ),
    ],
)
def test_a_rank_that_ended_while_its_peer_trained_is_the_verdict_not_the_peers_lost_connection(recorded, error, rank):
    from crashmatrix.verdict.classify import classify

    v = classify(1, stderr=UNEVEN_TORCHRUN, recorded=_recorded(*recorded))
    assert (v.outcome.value, v.signal, v.rank, v.signature, v.error) == ("fail", "", rank, "rank_ended_early", error)
    assert 'ddp_uneven.py", line 65, in steps' in v.told  # the victim's place: where it waited for the peer


def test_a_peer_that_raised_is_no_rank_that_ended_early():
    from crashmatrix.verdict.classify import classify

    # rank 1 raised (and ended first); rank 0's lost connection is the consequence of that, not of an early end
    raised = (
        "[rank1]: Traceback (most recent call last):\n"
        '[rank1]:   File "/w/train.py", line 46, in train\n'
        "[rank1]: ValueError: bad batch on rank 1\n"
    )
    v = classify(1, stderr=raised + UNEVEN_TORCHRUN, recorded=_recorded((0, 20.5, 6), (1, 20.0, 5)))
    assert (v.outcome.value, v.rank, v.signature) == ("fail", 1, "ValueError: bad batch on rank N")
    # torchrun names another failed rank (here killed by its SIGTERM): no clean end is claimed without the recorder
    other = UNEVEN_TORCHRUN.replace("  <NO_OTHER_FAILURES>\n", "[1]:\n  rank      : 1 (local_rank: 1)\n")
    assert classify(1, stderr=other).signature != "rank_ended_early"


def test_a_hang_behind_a_rank_that_ended_early_names_it_with_its_steps():
    # spawn-inject of tests/test_uneven_ranks.py on a box at load 25: rank 1 left its loop after 5 steps and
    # wrote its end, then spent the whole timeout in its interpreter's exit (faulthandler: "Garbage-collecting",
    # no Python frame), its sockets still open; rank 0 waited in its 6th step's all_reduce.
    from crashmatrix.verdict import straggler
    from crashmatrix.verdict.stacks import ProcessStacks, parse_faulthandler

    waiting = (
        "Current thread 0x00007f21f682fb80 (most recent call first):\n"
        '  File "/venv/lib/python3.11/site-packages/torch/autograd/graph.py", line 979 in _engine_run_backward\n'
        '  File "/venv/lib/python3.11/site-packages/torch/_tensor.py", line 623 in backward\n'
        '  File "/w/tests/apps/ddp_uneven.py", line 65 in steps\n'
    )
    exiting = "Current thread 0x00007f2073be5b80 (most recent call first):\n  Garbage-collecting\n  <no Python frame>\n"
    rank0 = ProcessStacks(994, "python -c spawn_main", faulthandler=waiting, threads=parse_faulthandler(waiting))
    rank1 = ProcessStacks(996, "python -c spawn_main", faulthandler=exiting, threads=parse_faulthandler(exiting))
    states = [
        straggler.state(rank0, straggler.RankOf(0, True)),
        straggler.state(rank1, straggler.RankOf(1, True, True, 5)),
    ]
    error, where = straggler.summarize(states, [])
    assert error == (
        "rank 1 ended after 5 steps, its process not yet exited, outside any collective; "
        "rank 0 waits in DDP backward's all_reduce (ddp_uneven.py:65)"
    )


def test_a_rank_that_torchrun_lists_without_a_signal_name_is_named_by_its_number():
    # an older torchrun wrote `exitcode  : -11 (pid: N)` alone (2.13 adds `(SIGSEGV)` where the signal has a
    # name): the rank's signal is SIGSEGV as everywhere else, not "SIG11"
    from crashmatrix.verdict.ranks import root_failure

    report = torchrun_report(
        1, "SIGSEGV", 0, "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"
    )
    report = report.replace("(pid: 12694) (SIGSEGV)", "(pid: 12694)")
    assert "(SIGSEGV)\n" not in report
    failure = root_failure(report)
    assert (failure.rank, failure.signal) == (1, "SIGSEGV"), failure


def test_a_rank_killed_from_outside_is_the_cause_and_one_torchrun_killed_is_not():
    # the sixth held-out set's p_ddp_rank1_sigkill, recorded: rank 1 dies by a SIGKILL torchrun never sent (the
    # OOM killer's way), rank 0 then loses its gloo connection, and torchrun SIGTERMs it (logging that kill)
    from crashmatrix.verdict import ranks

    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout6", "torchrun", "cells", "443f09a809-r0")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8") as f:
        stderr = f.read()
    root = ranks.root_failure(stderr)
    assert (root.rank, root.signal) == (1, "SIGKILL"), root
    # had torchrun sent that SIGKILL itself (its kill after a grace period), it would be a consequence as before
    sent = stderr.replace(
        "closing signal SIGTERM", "closing signal SIGTERM\nSending process 30261 closing signal SIGKILL"
    )
    root = ranks.root_failure(sent)
    assert (root.rank, root.signal) == (0, ""), root


def _as_a_rank(tmp_path, source: str, rank_env: bool = True):
    """Run source as rank 1 of a cell, as torchrun starts a rank under inject (the rank's environment, the inject
    folder on PYTHONPATH, the cell's main another process); (the cell folder its records are in, the process).
    rank_env False: as mp.spawn starts one, with no RANK in its environment."""
    cell = tmp_path / "cell"
    cell.mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "rank1.py").write_text(source)
    env = {
        **os.environ,
        "PYTHONPATH": os.path.join(ROOT, "runner", "incell", "inject"),
        "CRASHMATRIX_KNOBS": "{}",
        "CRASHMATRIX_CELL_DIR": str(cell),
        "CRASHMATRIX_INJECT_ROOT": "1",  # the cell's main (torchrun) is another process
        **({"RANK": "1", "LOCAL_RANK": "1", "GROUP_RANK": "0", "WORLD_SIZE": "2"} if rank_env else {}),
    }
    done = subprocess.run([sys.executable, "rank1.py"], cwd=tmp_path, env=env, capture_output=True, text=True)
    return str(cell), done


def test_a_rank_that_killed_itself_is_placed_at_its_call_by_its_record(tmp_path):
    # p_ddp_rank1_sigkill under inject: rank 1 prints nothing as it dies. A rank torchrun starts is a new
    # interpreter that is neither the cell's main nor a multiprocessing child: started as torchrun starts it (its
    # environment, the inject folder on PYTHONPATH), its own kill is recorded, and the record places it
    from crashmatrix.verdict import exit_record

    cell, done = _as_a_rank(
        tmp_path,
        "import os, signal\n\n\ndef load_next_shard():\n    os.kill(os.getpid(), signal.SIGKILL)\n\n\nload_next_shard()\n",
    )
    assert done.returncode == -9, done.stderr
    assert exit_record.rank_place(cell, 1, "SIGKILL") == "rank1.py:5 in load_next_shard"
    assert exit_record.rank_place(cell, 0, "SIGKILL") == ""  # another rank: no record of its own
    assert exit_record.rank_place(cell, 1, "SIGSEGV") == ""  # a record of another end


def test_a_spawned_rank_that_exited_with_a_status_is_that_status_at_its_call(tmp_path):
    # the seventh held-out set's q_spawn_rank_sys_exit, its recorded stderr: rank 1 calls sys.exit(3) after
    # init_process_group; spawn SIGTERMs rank 0 and raises ProcessExitedException. The row said `exit status 1`
    # (the main's) at the parent's mp.spawn; the rank's status and, under inject, its own call are the failure
    from crashmatrix.verdict import exit_record
    from crashmatrix.verdict.classify import classify

    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout7", "single", "cells", "33c0e75e9f-r0")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8") as f:
        verdict = classify(1, stderr=f.read())
    assert (verdict.outcome.value, verdict.rank) == ("fail", 1)
    assert verdict.error == "ProcessExitedException: process 1 terminated with exit code 3"
    # the status is the rank's own choice, kept as the main's exit status is: argparse's 2 is another failure
    assert verdict.signature == "ProcessExitedException: process N terminated with exit code 3"
    assert exit_record.rank_exit_code(verdict) == 3
    # its record, as a rank writes it under inject (the rank's environment, the inject folder on PYTHONPATH)
    recorded, done = _as_a_rank(tmp_path, "import sys\n\n\ndef run():\n    sys.exit(3)\n\n\nrun()\n")
    assert done.returncode == 3, done.stderr
    assert exit_record.rank_place(recorded, 1, "", 3) == "rank1.py:5 in run"
    assert exit_record.rank_place(recorded, 1, "", 2) == ""  # another status: not this end


def test_a_spawned_rank_that_left_by_os_exit_is_placed_at_its_call(tmp_path):
    # the tenth held-out set's u_spawn_os_exit: rank 1 of mp.spawn calls os._exit(3), which skips the exit functions
    # where a spawned rank that drew no batch says which rank it is. Its end is still recorded, and is the only
    # process's but the main's that ended with the status spawn reported (`process 1 terminated with exit code 3`)
    from crashmatrix.verdict import exit_record

    source = (
        "import multiprocessing\nimport os\n\n\ndef run():\n    os._exit(3)\n\n\n"
        "if __name__ == '__main__':\n    rank = multiprocessing.get_context('spawn').Process(target=run)\n"
        "    rank.start()\n    rank.join()\n    raise SystemExit(rank.exitcode)\n"
    )
    recorded, done = _as_a_rank(tmp_path, source, rank_env=False)  # a parent, and the rank it spawns
    assert done.returncode == 3, done.stderr
    assert exit_record.rank_place(recorded, 1, "", 3) == ""  # no record says it was rank 1
    assert exit_record.spawned_rank_place(recorded, os.getpid(), 3) == "rank1.py:6 in run"
    assert exit_record.spawned_rank_place(recorded, os.getpid(), 2) == ""  # another status: not this end


def test_a_spawned_rank_that_killed_itself_before_it_knew_its_rank_is_placed_at_its_kill(tmp_path):
    # the eighty-third held-out set's el_rank0_watchdog_sigkill: elastic_launch spawns the ranks and gives them RANK
    # after they started, and rank 0's own memory watchdog SIGKILLs it (nothing printed): no record said which rank
    # it was. Its own kill is still recorded, the only one of that signal but the main's
    from crashmatrix.verdict import exit_record

    source = (
        "import multiprocessing\nimport os\nimport signal\n\n\ndef watchdog():\n    os.kill(os.getpid(), signal.SIGKILL)"
        "\n\n\nif __name__ == '__main__':\n    rank = multiprocessing.get_context('spawn').Process(target=watchdog)\n"
        "    rank.start()\n    rank.join()\n    raise SystemExit(1)\n"
    )
    recorded, done = _as_a_rank(tmp_path, source, rank_env=False)  # a parent, and the rank it spawns
    assert done.returncode == 1, done.stderr
    assert exit_record.rank_place(recorded, 0, "SIGKILL") == ""  # no record says it was rank 0
    assert exit_record.spawned_rank_signal_place(recorded, os.getpid(), "SIGKILL") == "rank1.py:7 in watchdog"
    assert exit_record.spawned_rank_signal_place(recorded, os.getpid(), "SIGSEGV") == ""  # another end


def test_a_spawned_rank_its_own_alarm_ended_is_placed_where_it_was(tmp_path):
    # the hundred-and-first held-out set's alarm_rank1_step: rank 1 of mp.spawn arms signal.alarm for each step with
    # no handler in that rank (rank 0 installed it); a slow step's alarm ends it by the default action, which prints
    # nothing. Its parent reaped it dead by SIGALRM, and its dump (faulthandler, registered under inject for the
    # signals it does not catch) holds where it was: the sleep, not the arming
    from crashmatrix.verdict import exit_record

    source = (
        "import multiprocessing\nimport signal\nimport time\n\n\ndef step():\n    signal.alarm(1)\n"
        "    time.sleep(5)\n\n\nif __name__ == '__main__':\n"
        "    rank = multiprocessing.get_context('spawn').Process(target=step)\n"
        "    rank.start()\n    rank.join()\n    raise SystemExit(1)\n"
    )
    recorded, done = _as_a_rank(tmp_path, source, rank_env=False)  # a parent, and the rank it spawns
    assert done.returncode == 1, done.stderr
    assert exit_record.rank_place(recorded, 1, "SIGALRM") == ""  # no record says it was rank 1
    assert exit_record.spawned_rank_signal_place(recorded, os.getpid(), "SIGALRM") == "rank1.py:8 in step"
    assert exit_record.spawned_rank_signal_place(recorded, os.getpid(), "SIGSEGV") == ""  # another end


def _own_exit_log(name: str) -> str:
    with open(os.path.join(ROOT, "tests", "data", "rank-own-exit", name), encoding="utf-8") as f:
        return f.read()


def test_an_unlabelled_traceback_is_no_rank_s_that_ended_itself_with_a_status_of_its_own():
    # tests/data/rank-own-exit/README.md: rank 1's sys.exit(3) at T, rank 0's ValueError at T+30 ms. The recorder
    # saw rank 1 end first, and the unlabelled traceback went to it: the row said rank 1 with rank 0's ValueError
    from crashmatrix.verdict.ranks import root_failure

    root = root_failure(_own_exit_log("torchrun-exit3-then-raise-alone.err"), _recorded((0, 20.03, 0), (1, 20.0, 0)))
    assert root is not None and root.rank == 0, root
    assert root.text.rstrip().endswith("ValueError: rank 0: shard index 7 out of range"), root.text


def test_a_ranks_message_that_starts_with_a_newline_keeps_its_words():
    # tests/data/rank-own-exit/README.md: rank 1's `ValueError: ` with its message on the next line; the rank's
    # text was cut at the `ValueError: ` line, and the row said `ValueError:` alone
    from crashmatrix.verdict.classify import classify

    got = classify(1, stderr=_own_exit_log("torchrun-newline-message-alone.err"))
    assert (got.rank, got.error) == (1, "ValueError: shard 7 has 0 rows"), got


def test_a_ranks_caught_exception_is_named_by_its_own_lines_not_another_ranks(tmp_path):
    # a review's torchrun program: rank 1 caught a ValueError and ended by sys.exit(3) printing a line that names no
    # exception, while rank 0 printed `[rank0]: ValueError checks enabled`. Rank 0's words made rank 1's handled
    # ValueError the verdict; with rank 0 silent, the same rank 1 gave `exit status 1`
    from crashmatrix.verdict.uncaught import told

    source = (
        "import sys\n\n\ndef load():\n    raise ValueError('shard 7 is empty')\n\n\ntry:\n    load()\n"
        "except ValueError:\n    print('rank 1: giving up', file=sys.stderr)\n    sys.exit(3)\n"
    )
    cell, done = _as_a_rank(tmp_path, source)
    assert done.returncode == 3, done.stderr
    mine = "rank 1: giving up\n"
    assert told("[rank0]: ValueError checks enabled\n" + mine, "", cell, pid=1) == (
        "[rank0]: ValueError checks enabled\n" + mine
    )
    # its own line naming it: the caught exception, under its label
    said = told("rank 1: ValueError: shard 7 is empty, giving up\n", "", cell, pid=1)
    assert "[rank1]: ValueError: shard 7 is empty\n" in said, said


def test_a_ranks_option_parser_refusal_is_told_by_its_words():
    # tests/data/rank-own-exit/README.md: rank 1's argparse exits 2 after its usage; torchrun's report and log lines
    # follow. The row said `rank 1 exited with exit code 2`, the parser's words left out
    from crashmatrix.verdict.classify import classify

    got = classify(1, stderr=_own_exit_log("torchrun-argparse-alone.err"))
    assert (got.rank, got.error) == (1, "tr.py: error: the following arguments are required: --lr"), got


def test_the_rank_that_ran_out_of_inputs_under_join_is_the_first_failure():
    # the eighty-fifth held-out set's fs_join_throw_uneven, recorded (run alone: the same, 4 runs): torchrun, 2 gloo
    # ranks under torch's Join(throw_on_early_termination=True); rank 1 runs out of inputs first (`RuntimeError: Rank 1
    # exhausted all inputs.` at :25), rank 0 then throws `Detected at least one rank that exhausted inputs. Throwing
    # across all ranks.` at :27. Whichever printed first was told: rank 0 in 2 of 3 repeats.
    from diagnose_agreement import diagnosed

    for repeat in range(3):
        cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout85", "torchrun", "cells", f"3dbd9edd45-r{repeat}")
        row = diagnosed(cell)
        assert (row["outcome"], row["rank"]) == ("fail", "1"), row
        assert row["where"].endswith("zoo/modes/fs_join_throw_uneven.py:25 in run"), row


def test_a_ranks_logged_error_before_its_own_exit_is_the_first_failure_with_its_rank():
    # tests/data/rank-own-exit/README.md (a review's programs, tests/apps/logged_rank): rank 1 logs its ValueError
    # with logging.exception and calls sys.exit(1). Under mp.spawn the row said rank 0 (spawn's `exit code 1` was
    # taken for a status of the rank's own); with the program's own multiprocessing ranks it told rank 0's `Connection
    # closed by peer`, the logged traceback taken for one the rank had handled
    from crashmatrix.verdict.classify import classify

    for name, recorded in [
        ("spawn-logged-exit1.err", ()),
        ("spawn-logged-abort-alone.err", ()),  # alone, 1 run in 5: rank 1 then aborts as it exits
        # no launcher names a rank: each rank's record does (the last test here), rank 1's end the first
        ("processes-logged-exit1.err", _recorded((1, 20.0, 3), (0, 20.4, 3))),
    ]:
        got = classify(1, stderr=_own_exit_log(name), recorded=recorded)
        assert (got.outcome.value, got.rank) == ("fail", 1), (name, got)
        assert got.error == "ValueError: record 29 of shard 1 has 7 features, expected 8", (name, got)


def test_two_spawned_ranks_that_raised_alike_name_no_rank_the_launcher_happened_to_report():
    # the sixty-seventh set's im_spawn_relative_syspath: both spawned ranks fail to import the program's module, and
    # spawn reports `process 0 terminated with exit code 1`; which traceback is whose is not told
    from crashmatrix.verdict.classify import classify

    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout67", "single", "cells", "a07341a3da-r1")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8") as f:
        got = classify(1, stderr=f.read())
    assert (got.rank, got.error) == (None, "ModuleNotFoundError: No module named 'im_featurizer'"), got


def test_a_rank_the_program_started_itself_records_its_group_rank_at_its_end(tmp_path):
    # a rank given its rank as an argument (no launcher's environment): its record, by its process group, lets the
    # verdict take the rank whose process ended first for the unlabelled traceback that came first
    source = (
        "import sys\nimport torch.distributed as dist\n\n"
        f"dist.init_process_group('gloo', init_method='file://{tmp_path}/store', rank=0, world_size=1)\n"
        "sys.exit(1)\n"
    )
    cell, done = _as_a_rank(tmp_path, source, rank_env=False)
    assert done.returncode == 1, done.stderr
    from crashmatrix.verdict.ranks import recorded_ranks

    [record] = recorded_ranks(cell)
    assert record.rank == 0 and record.ended is not None, record


def test_a_rank_the_program_forked_records_its_rank_and_its_own_forked_child_none(tmp_path):
    # the forty-third set's dx_spawn_bcast_object_lock: ranks started by the program's mp.Process (fork), each given
    # its rank; a process such a rank forks (a DataLoader worker, a pool's) finds the rank's group in its memory and
    # is no rank of its own
    source = (
        "import multiprocessing as mp\nimport sys\nimport torch.distributed as dist\n\n\n"
        "def child():\n    pass\n\n\n"
        "def rank():\n"
        f"    dist.init_process_group('gloo', init_method='file://{tmp_path}/store', rank=0, world_size=1)\n"
        "    forked = mp.get_context('fork').Process(target=child)\n    forked.start()\n    forked.join()\n"
        "    sys.exit(1)\n\n\n"
        "started = mp.get_context('fork').Process(target=rank)\nstarted.start()\nstarted.join()\n"
        "print(started.pid)\nsys.exit(started.exitcode)\n"
    )
    cell, done = _as_a_rank(tmp_path, source, rank_env=False)
    assert done.returncode == 1, done.stderr
    from crashmatrix.verdict.ranks import recorded_ranks

    [record] = recorded_ranks(cell)
    assert (record.pid, record.rank) == (int(done.stdout), 0) and record.ended is not None, record


def test_a_ranks_thread_error_its_hook_printed_before_killing_the_rank_is_that_ranks_crash():
    # the ninety-third set's eg_ddp_thread_hook_kill (recorded, alone the same): rank 1's threading.excepthook prints
    # a thread's KeyError, unlabelled, then SIGKILLs its own process; torchrun reports rank 1 `exitcode: -9`, a kill it
    # never sent. The row said `fail` with no signal and no rank
    from diagnose_agreement import diagnosed

    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout93", "torchrun", "cells", "27f0696bc5-r0")
    row = diagnosed(cell)
    assert (row["outcome"], row["signal"], row["rank"]) == ("rank_crash", "SIGKILL", "1"), row
    assert row["error"] == "KeyError: 'aux_loss'; then killed by SIGKILL", row
    assert row["where"].endswith("zoo/modes/eg_ddp_thread_hook_kill.py:26 in aggregate"), row


def test_a_logged_traceback_is_no_killed_ranks_words_and_comes_after_its_death():
    # tests/data/review96/README.md: rank 0 logs a handled KeyError and goes on; rank 1 is SIGKILLed silently. The
    # row gave rank 0's logged KeyError to rank 1 (`...; then killed by SIGKILL`) before, the KeyError alone before that
    from crashmatrix.verdict.classify import classify

    with open(os.path.join(ROOT, "tests", "data", "review96", "p7_torchrun_kill.err"), encoding="utf-8") as f:
        got = classify(1, stderr=f.read())
    assert (got.outcome.value, got.signal, got.rank, got.error) == (
        "rank_crash",
        "SIGKILL",
        1,
        "rank 1 killed by SIGKILL",
    )


def test_a_process_that_made_a_world_of_one_is_no_rank(tmp_path):
    # the ninety-ninth held-out set's hydra_multirun_pg: a Hydra job made a gloo group of world size 1 for a
    # library's sake and failed in a single process; the row said `fail (rank 0)`, a rank of no distributed job
    program = (
        "import os\nimport torch.distributed as dist\n\n"
        "dist.init_process_group('gloo', init_method='file://' + os.path.abspath('rdzv'), rank=0, world_size=1)\n"
        "raise ValueError('the job failed on its own')\n"
    )
    row, _cell = one_injected_cell(tmp_path, "one", program)
    assert (row["outcome"], row["rank"], row["error"]) == ("fail", "", "ValueError: the job failed on its own"), row
