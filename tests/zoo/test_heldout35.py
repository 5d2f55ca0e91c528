"""The thirty-fifth held-out set (truth_heldout35.yaml, HELDOUT35.md): failures of tabular and time-series training
on pandas written as users report them, seven in a new project (ts_proj/: a setup.py marker, the package forecast
run as `python bin/forecast.py --task NAME --workers 2 --window 24` with argparse options, its store_true flag
`--scale` swept as a boolean axis), without reading crashmatrix's rules, each with its truth from running it alone.
Its runs were recorded once, before any rule changed (recorded/heldout35/); here every recorded cell's stderr.log is
diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no torch), and held to
the truth's outcome, `signature_has` and `where`, as test_heldout19.py does for the nineteenth set.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's). A ts_proj mode's truth names one value of `scale`,
so it has 3 recorded cells, as every other mode.
"""

from __future__ import annotations

from heldout_recorded import HeldOut

RUNS = {
    "app": ["app"],
    "single": ["single"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "torchrun": ["torchrun"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT35.md lists the run's)
UNTRUE: dict = {}
SET = HeldOut("heldout35", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=12
)


def test_a_worker_that_died_copying_the_programs_strided_view_is_no_bug_report_for_torch():
    # HELDOUT35.md counted the addressee untrue: the worker died in libtorch_cpu.so's copy (torch.tensor of a
    # numpy view), and ISSUE.md went to PyTorch's tracker; the view was the program's own as_strided, 3600 rows
    # apart over a buffer of 240, which numpy checks against nothing. Each recorded repeat's stderr.log now names
    # the program's line that made it, and the report is the program's
    for cell in SET.cells("ts_worker_as_strided_segv"):
        whose = SET.whose(cell, {"torch": "2.13.0+cpu"})
        assert whose is not None and whose.is_torch, cell
        assert (whose.owns_the_bug, whose.viewed) == (False, "zoo/modes/ts_worker_as_strided_segv.py:17"), cell
