"""The thirty-ninth held-out set (truth_heldout39.yaml, HELDOUT39.md): failures of graph and sparse learning written
by hand, as users report them, six in a new project (gn_proj/: a setup.cfg marker, a package graphkit/ with its
data, layers and loop, an entry script tools/train_graph.py taking argparse options and putting the project on
sys.path itself; edge-list message passing, sparse adjacency, custom graph collation in DataLoader workers), without
reading crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once, before any rule
changed (recorded/heldout39/); here every recorded cell's stderr.log is diagnosed again with today's rules, in this
process (`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome, `signature_has` and
`where`, as test_heldout19.py does for the nineteenth set.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's).
"""

from __future__ import annotations

from heldout_recorded import HeldOut

RUNS = {
    "app": ["app"],
    "single": ["single"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "torchrun": ["torchrun"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT39.md lists the run's)
UNTRUE = {}
SET = HeldOut("heldout39", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=12
)
