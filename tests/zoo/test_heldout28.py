"""The twenty-eighth held-out set (truth_heldout28.yaml, HELDOUT28.md): failures of evaluation, export and
checkpoint I/O written as users report them, eight in a new project (ev_proj/: a pyproject.toml marker, the package
evalkit run as `python -m evalkit --task NAME --batch-size 8 --workers 2` with argparse options, its store_true flag
`--strict-load` swept as a boolean axis), without reading crashmatrix's rules, each with its truth from running it
alone. Its runs were recorded once, before any rule changed (recorded/heldout28/); here every recorded cell's
stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no
torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout19.py does for the nineteenth.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's). An ev_proj mode has 6 recorded cells, not 3: its
truth holds for both values of the boolean axis `strict-load` (3 repeats each).
"""

from __future__ import annotations

from heldout_recorded import HeldOut

RUNS = {
    "app": ["app"],
    "single": ["single"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "torchrun": ["torchrun"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT28.md lists the run's)
UNTRUE = {
    ("ev_ddp_rank1_half_written", "signature_has"): "repeat r2: `OSError: [Errno N] Invalid argument in "
    "zoo/modes/ev_ddp_rank1_half_written.py:wait_and_load`, rank 1 having opened the file earlier in rank 0's write "
    "(a true report of a racing program whose truth named only the text seen alone; r0 and r1 say the truth)",
}


class BooleanAxisHeldOut(HeldOut):
    """HeldOut whose app run sweeps a second, boolean axis: each app mode has 2 x 3 recorded cells."""

    def check_recorded(self, modes_at_least: int) -> None:
        assert len(self.truth) >= modes_at_least
        for mode, truth in self.truth.items():
            per_run = 6 if truth["run"] == "app" else 3
            assert len(self.cells(mode)) == per_run * len(self.runs[truth["run"]]), mode


SET = BooleanAxisHeldOut("heldout28", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=14
)
