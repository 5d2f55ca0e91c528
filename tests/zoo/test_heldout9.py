"""The ninth held-out set (truth_heldout9.yaml, HELDOUT9.md): 18 failures written as users report them, nine in a
Hydra + Lightning project marked by a setup.cfg, its code in a flat package and its config groups found through
`hydra.searchpath` (t_proj/, `python run.py experiment=NAME`), without reading crashmatrix's rules, each with its
truth from running it alone. Its runs were recorded once, before any rule changed (recorded/heldout9/); here every
recorded cell's stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own
function, no torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout8.py does for
the eighth set.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's).
"""

from __future__ import annotations

from heldout_recorded import HeldOut

RUNS = {
    "app": ["app"],
    "app2": ["app2"],
    "single": ["single"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "hangs2": ["hangs2-inject", "hangs2-plain"],
    "torchrun": ["torchrun"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT9.md lists the run's)
UNTRUE = {
    ("t_hydra_searchpath_group", "where"): "conf/run.yaml:5 in defaults.loss, the primary config's defaults entry "
    "the experiment overrides, as the run said (counted untrue there): not the experiment's `override /loss: focal` "
    "nor the option file in its misnamed group folder. The log does not carry the overrides (experiment=...); a run, "
    "which has them, places it at the experiment's override since",
}
SET = HeldOut("heldout9", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=18
)
