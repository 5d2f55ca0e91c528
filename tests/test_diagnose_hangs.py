"""`crashmatrix diagnose` of a hung cell: its stderr.log is read with the stacks.txt its run saved before the kill
(runner/verdict/kept_stacks.py). Recorded cells of the held-out sets' real hangs; the live ones are
tests/test_hang_places.py's (test_diagnose_of_a_hung_cells_logs_places_it_as_its_run_did)."""

from __future__ import annotations

import csv
import os

import pytest
from conftest import ROOT
from diagnose_agreement import diagnosed

from crashmatrix.errors import BadInput
from crashmatrix.resolve.diagnose import diagnose
from crashmatrix.resolve.log_text import read_logs
from crashmatrix.verdict import kept_stacks
from crashmatrix.verdict.stacks import Frame

RECORDED = os.path.join(ROOT, "tests", "zoo", "recorded")


def _row(run: str, cell: str) -> dict:
    with open(os.path.join(RECORDED, run, "results.csv"), newline="") as f:
        return next(r for r in csv.DictReader(f) if r["log_dir"] == f"cells/{cell}")


@pytest.mark.parametrize(
    "run,cell",
    [
        # two torchrun ranks in two collectives (the twenty-fifth set's o_hang_gather_rank0), no inject
        ("heldout25/hangs-plain", "191343a878-r0"),
        # a main in pool.map whose worker was killed (the fifty-third set's mp_hang_pool_worker_killed)
        ("heldout53/hangs-plain", "65ba71b2e7-r0"),
        # a logging handler's emit waiting on the program's upload thread (the fifty-second set's
        # lg_hang_handler_joins_logger), the thread named beside the main
        ("heldout52/hangs-inject", "4e78b19a40-r0"),
    ],
)
def test_a_hung_cells_empty_log_is_a_timeout_placed_where_its_run_placed_it(run, cell):
    folder = os.path.join(RECORDED, run, "cells", cell)
    with open(os.path.join(folder, "stderr.log"), encoding="utf-8") as f:
        assert "Traceback" not in f.read()  # nothing the program printed says where it waited
    row, said = _row(run, cell), diagnosed(folder)
    assert said["outcome"] == "timeout" and said["signal"] == "", said
    assert (said["where"], said["signature"], said["rank"]) == (row["where"], row["signature"], row["rank"]), said
    assert said["error"].startswith("timed out; "), said  # the time limit is the run's alone


def test_a_stacks_txt_a_failed_job_left_is_no_timeouts():
    """peers.py's stacks of the ranks still alive once a job had failed: read as a failure's, not as a hang."""
    peers = "=== pid 4242 (rank 1), once the job had failed\nThread 0x7f (most recent call first):\n"
    assert not kept_stacks.is_timeouts(peers)
    assert kept_stacks.is_timeouts("=== pid 4242 (main): python train.py\n--- py-spy dump\n")


def test_a_busy_processs_samples_are_read_back_as_they_were_written():
    samples = [
        [Frame("overlap", "/app/nms.py", "6"), Frame("suppress", "/app/nms.py", "22")],
        [Frame("suppress", "/app/nms.py", "21")],
    ]
    text = "=== pid 7 (main): python app/main.py\n(its main thread was running as it was caught)\n"
    text += kept_stacks.samples_text(samples)
    ((role, process),) = kept_stacks.read(text)
    assert (role, process.busy, process.samples) == ("main", True, samples)


def test_an_empty_log_is_bad_input_unless_a_timeouts_stacks_lie_beside_it(tmp_path):
    (tmp_path / "stderr.log").write_text("")
    with pytest.raises(BadInput, match="empty, nothing to diagnose"):
        read_logs([str(tmp_path / "stderr.log")])
    (tmp_path / "stacks.txt").write_text("=== pid 7 (main): python app/main.py\n(no stacks: not a Python process)\n")
    log = read_logs([str(tmp_path / "stderr.log")])
    assert log.stacks.startswith("=== pid 7 (main)") and "=== pid" not in log.text


def _hang_cell(folder, stderr: str = "") -> None:
    folder.mkdir()
    (folder / "stderr.log").write_text(stderr)
    (folder / "stacks.txt").write_text(
        f"=== pid 7 (main): python app/main.py\n--- Python stacks of every thread (faulthandler)\n"
        f'Thread 0x00007f01 (most recent call first):\n  File "{folder}/app.py", line 5 in main\n'
    )


def test_a_childs_death_in_the_shared_log_is_not_the_hung_cells_own(tmp_path):
    # a review's program: a helper subprocess segfaults, the parent prints its exit code and then waits for ever
    # at its line 5; the run said timeout there, and so does diagnose of the cell (its main was alive at the kill)
    child = "Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f02 (most recent call first):\n"
    child += '  File "/app/helper.py", line 3 in crunch\n\nhelper exited with -11\n'
    _hang_cell(tmp_path / "cell", child)
    row = diagnose(read_logs([str(tmp_path / "cell" / "stderr.log")])).row
    assert (row["outcome"], row["signal"], row["where"]) == ("timeout", "", "main app.py:5 in main"), row


def test_two_cells_logs_at_once_are_not_read_with_either_cells_stacks(tmp_path):
    # a review's: a hung cell's stacks.txt took over another cell's failure given beside it
    _hang_cell(tmp_path / "hung")
    (tmp_path / "failed").mkdir()
    (tmp_path / "failed" / "stderr.log").write_text(
        'Traceback (most recent call last):\n  File "/app/p4.py", line 11, in load\nValueError: bad row\n'
    )
    log = read_logs([str(tmp_path / "hung"), str(tmp_path / "failed")])
    assert log.stacks == "" and "ValueError: bad row" in log.text
    assert diagnose(log).row["outcome"] == "fail"


def test_a_stacks_file_renamed_to_attach_it_is_read_by_what_it_holds(tmp_path):
    _hang_cell(tmp_path / "cell")
    renamed = tmp_path / "h1_stacks.txt"
    renamed.write_text((tmp_path / "cell" / "stacks.txt").read_text())
    assert diagnose(read_logs([str(renamed)])).row["outcome"] == "timeout"


def test_what_a_hung_cell_printed_after_the_kill_began_is_the_kills_not_the_hangs(tmp_path):
    # a fresh clone's make test, the zoo's fork_lock hang: its stderr.log was empty as the kill began
    # (result.json's stderr_at_kill 0), then the kill's SIGTERM to the worker made the main print `DataLoader worker
    # (pid 566) is killed by signal: Terminated`; the run read nothing of it (a hang), diagnose read a worker_signal
    answer = 'Traceback (most recent call last):\n  File "/app/main.py", line 40, in main\n'
    answer += "RuntimeError: DataLoader worker (pid 566) is killed by signal: Terminated. \n"
    _hang_cell(tmp_path / "cell", answer)
    (tmp_path / "cell" / "result.json").write_text('{"outcome": "timeout", "stderr_at_kill": 0}')
    row = diagnose(read_logs([str(tmp_path / "cell" / "stderr.log")])).row
    assert (row["outcome"], row["signature"]) == ("timeout", "hang in app.py:main"), row


@pytest.mark.parametrize(
    "run,cell,process",
    [
        # the ninety-seventh set's kx_hang_worker_gomp (alone: the same, py-spy --native): a worker_init_fn raised the
        # forked worker's threads to 2, and its first parallel op waits in libgomp for a pool the fork did not keep
        ("heldout97/hangs-inject", "b93cf0da66-r0", "27589 (DataLoader worker)"),
        # the eighty-ninth set's th_hang_worker_threads_after_fork, the same in two workers
        ("heldout89/hangs-plain", "646242736e-r0", "22464 (DataLoader worker)"),
    ],
)
def test_a_forked_process_waiting_in_gnu_openmp_is_told_as_the_fork_problem(run, cell, process):
    folder = os.path.join(RECORDED, run, "cells", cell)
    found = diagnose(read_logs([os.path.join(folder, "stderr.log")]))
    assert found.row["outcome"] == "timeout", found.row
    assert f"Its forked process {process} waited inside GNU OpenMP (libgomp)" in found.whose, found.whose
    assert "spawn or forkserver (the start_method axis)" in found.whose


def test_a_hang_with_no_process_in_openmp_says_nothing_of_it():
    # the fifty-third set's main in pool.map whose worker was killed: py-spy's native frames, none in libgomp
    folder = os.path.join(RECORDED, "heldout53", "hangs-plain", "cells", "65ba71b2e7-r0")
    found = diagnose(read_logs([os.path.join(folder, "stderr.log")]))
    assert found.row["outcome"] == "timeout" and "OpenMP" not in found.whose, found.whose
