"""The twenty-fifth held-out set (truth_heldout25.yaml, HELDOUT25.md): distributed and multi-process failures on CPU
(gloo) written as users report them, seven in a new project (o_proj/: a setup.py root marker, a package o_dist run
as `torchrun --nproc-per-node 2 -m o_dist.train case=NAME` or `python -m o_dist.launch case=NAME` from its
folder, its own key=value parsing), without reading crashmatrix's rules, each with its truth from running it alone.
Its runs were recorded once, before any rule changed (recorded/heldout25/); here every recorded cell's stderr.log is
diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no torch), and held to
the truth's outcome, `signature_has` and `where`, as test_heldout19.py does for the nineteenth set.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's).
"""

from __future__ import annotations

from heldout_recorded import HeldOut

RUNS = {
    "app": ["app"],
    "app-spawn": ["app-spawn"],
    "single": ["single"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "torchrun": ["torchrun"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT25.md lists the run's)
UNTRUE = {}
SET = HeldOut("heldout25", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=14
)
