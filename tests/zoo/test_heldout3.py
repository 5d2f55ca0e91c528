"""The third held-out set (truth_heldout3.yaml, HELDOUT3.md): 26 failures written as users report them, without
reading crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once, before any
rule changed (recorded/heldout3/); here every recorded cell's stderr.log is diagnosed again with today's rules,
in this process (`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome,
`signature_has` and `where`, as test_heldout2.py does for the second set.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's).
"""

from __future__ import annotations

import pytest
from heldout_recorded import HeldOut

RUNS = {
    "single": ["single"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "torchrun": ["torchrun"],
    "torchrun-hang": ["torchrun-hang-inject", "torchrun-hang-plain"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT3.md lists the run's)
UNTRUE = {
    ("k_hang_pipe_full", "where"): "no place: stderr.log holds no stack of the main's wait(); the run read "
    "stacks.txt (its where was the truth)",
    ("k_ddp_collective_unmatched", "where"): "torch/distributed/elastic/multiprocessing/api.py:86 in "
    "_terminate_process_handler (torchrun's SIGTERM handler); the run named each rank's collective and line",
}
SET = HeldOut("heldout3", RUNS, UNTRUE)


@pytest.fixture(scope="module")
def told() -> dict:
    return SET.told()


def test_every_mode_has_its_recorded_cells():
    SET.check_recorded(modes_at_least=26)


@pytest.mark.parametrize("mode,aspect", SET.cases())
def test_diagnose_of_the_recorded_logs_gives_the_truth(told, mode, aspect):
    SET.check(told[mode], mode, aspect)
