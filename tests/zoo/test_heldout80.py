"""The eightieth held-out set (truth_heldout80.yaml, HELDOUT80.md): failures over memory-mapped data written as users
report them, four in a new project (mm_proj/: a pyproject.toml marker, an entry train.py run as
`python train.py --case NAME` from its folder, a package mapkit/ of shards, loader and training), without reading
crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once, before any rule
changed (recorded/heldout80/); here every recorded cell's stderr.log is diagnosed again with today's rules, in this
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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT80.md lists the run's)
UNTRUE = {}
SET = HeldOut("heldout80", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=11
)
