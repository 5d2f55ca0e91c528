"""The third held-out set (truth_heldout3.yaml, HELDOUT3.md): 26 failures written as users report them, without
reading crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once, before any
rule changed (recorded/heldout3/); here every recorded cell's stderr.log is diagnosed again with today's rules,
in this process (`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome,
`signature_has` and `where`, as test_heldout2.py does for the second set.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's).
"""

from __future__ import annotations

import os
import re

from diagnose_agreement import _checkout_paths
from heldout_recorded import HeldOut

from crashmatrix.verdict import straggler
from crashmatrix.verdict.signature import hang_signature
from crashmatrix.verdict.stacks import ProcessStacks, parse_faulthandler, parse_pyspy

RUNS = {
    "single": ["single"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "torchrun": ["torchrun"],
    "torchrun-hang": ["torchrun-hang-inject", "torchrun-hang-plain"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT3.md lists the run's)
UNTRUE = {}
SET = HeldOut("heldout3", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=26
)


# A rank's stacks in a hung cell's stacks.txt (forensics._write_stacks): its head, then faulthandler's dump and/or
# py-spy's, up to the next process's head.
_RANK_STACKS = re.compile(r"^=== pid (\d+) \(rank (\d+)\): [^\n]*\n(.*?)(?=^=== |\Z)", re.S | re.M)


def _where_from_stacks(cell: str) -> str:
    """The hang's `where` that straggler.summarize gives the ranks' stacks the run kept (stacks.txt), with
    today's rules (the run itself read them from the live processes before the kill)."""
    with open(os.path.join(cell, "stacks.txt"), encoding="utf-8") as f:
        text = _checkout_paths(f.read())
    states = []
    for pid, rank, body in _RANK_STACKS.findall(text):
        faulthandler, _, pyspy = body.partition("--- py-spy dump\n")
        p = ProcessStacks(int(pid), "", faulthandler=faulthandler, pyspy=pyspy)
        p.threads = parse_faulthandler(faulthandler) or parse_pyspy(pyspy)
        states.append(straggler.state(p, int(rank)))
    return straggler.summarize(states, [])[1]


def test_an_unmatched_collectives_hang_names_each_ranks_frame_from_its_recorded_stacks():
    # HELDOUT3.md counted the run's `where` untrue: each rank's collective and line, but not its function. From
    # the 6 recorded cells' stacks.txt (3 with inject, 3 from py-spy without), every `where` now gives the truth
    # and one signature, free of line numbers
    cells = SET.cells("k_ddp_collective_unmatched")
    wheres = {_where_from_stacks(cell) for cell in cells}
    assert len(cells) == 6 and wheres == {
        "rank 0 in barrier at zoo/modes/k_ddp_collective_unmatched.py:17 in run; "
        "rank 1 in all_reduce at zoo/modes/k_ddp_collective_unmatched.py:10 in log_metric"
    }, wheres
    SET.check([{"where": where} for where in wheres], "k_ddp_collective_unmatched", "where")
    assert {hang_signature(where) for where in wheres} == {
        "hang in barrier at zoo/modes/k_ddp_collective_unmatched.py:run; "
        "all_reduce at zoo/modes/k_ddp_collective_unmatched.py:log_metric"
    }
