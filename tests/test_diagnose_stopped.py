"""`crashmatrix diagnose` of a torchrun job stopped from outside (a time limit's SIGTERM, a cancel, a kill):
torchrun's signal handler raises SignalException in its own frames, and the log holds nothing of its ranks.
Before, the log read as the program's failure, placed in torchrun's handler and addressed to the program
("torch refused what the program gave it ... at torchrun:8 in <module>").

Real logs: the third held-out set's k_ddp_collective_unmatched under torchrun (2 gloo ranks waiting in
different collectives), stopped by crashmatrix's timeout with SIGTERM (tests/zoo/recorded/heldout3/). The
contrast: a torchrun log whose rank failed first keeps that rank's verdict.
"""

from __future__ import annotations

import glob
import os
import shutil

import pytest
from conftest import ROOT

from crashmatrix.resolve.diagnose import diagnose, printed
from crashmatrix.resolve.log_text import read_logs

HANGS = sorted(glob.glob(os.path.join(ROOT, "tests/zoo/recorded/heldout3/torchrun-hang-*/cells/*/stderr.log")))
RANK_FAILED = os.path.join(ROOT, "tests/zoo/recorded/heldout3/torchrun/cells")


@pytest.mark.parametrize("log", HANGS, ids=lambda p: p.split("recorded/")[1])
def test_a_launcher_stopped_from_outside_is_said_so_with_no_place(log, tmp_path):
    alone = tmp_path / "torchrun.log"  # the job's log as a user has it: no cell's stacks.txt beside it
    shutil.copyfile(log, alone)
    told = diagnose(read_logs([str(alone)]))
    row = told.row
    assert (row["outcome"], row["signal"], row["signature"], row["where"]) == (
        "crash",
        "SIGTERM",
        "killed_by_signal",
        "",
    )
    assert row["error"].startswith("the launcher was sent SIGTERM and stopped its ranks (SignalException: Process ")
    assert "stopped from outside (a time limit, a cancel, a kill), not by a failure of its own" in row["error"]
    assert told.whose.startswith("No failure of the job's own to fix: it was stopped from outside")
    assert any(c.startswith("why it was stopped, and where its ranks were then") for c in told.cannot_tell)
    assert "torchrun:8" not in printed(told)


def test_six_recorded_hangs_are_read():
    assert len(HANGS) == 6


def test_a_rank_that_failed_first_is_still_the_verdict():
    (log,) = sorted(glob.glob(os.path.join(RANK_FAILED, "*-r0", "stderr.log")))
    row = diagnose(read_logs([log])).row
    assert (row["outcome"], row["rank"]) == ("fail", "0") and "ValueError" in row["error"]


@pytest.mark.parametrize("log", HANGS, ids=lambda p: p.split("recorded/")[1])
def test_the_same_log_in_its_cell_is_a_timeout_placed_by_the_stacks_beside_it(log):
    """The cell's folder holds the stacks.txt its run saved before the kill: each rank's wait, as the run said."""
    row = diagnose(read_logs([log])).row
    assert (row["outcome"], row["signal"]) == ("timeout", ""), row
    assert row["where"] == (
        "rank 0 in barrier at zoo/modes/k_ddp_collective_unmatched.py:17 in run; "
        "rank 1 in all_reduce at zoo/modes/k_ddp_collective_unmatched.py:10 in log_metric"
    ), row
