"""The forty-seventh held-out set (truth_heldout47.yaml, HELDOUT47.md): failures of Hydra-configured training apps
written as users report them, six in a new project (hy_proj/: a pyproject.toml marker, conf/ with model, data,
optim and experiment groups, a ConfigStore schema, `python train.py +case=NAME`), six zoo modes, without reading
crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once, before any rule
changed (recorded/heldout47/); here every recorded cell's stderr.log is diagnosed again with today's rules, in this
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
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT47.md lists the run's)
UNTRUE = {
    ("hy_init_own_error", "where"): "conf/case/hy_init_own_error.yaml:3 in model: stderr.log holds only Hydra's "
    "short message (`Error in call to target 'hyapp.model.Net': ValueError(...)`, `full_key: model`, no "
    "traceback), so diagnose places it at the config node that set the key; the run, which had the traceback, "
    "said hyapp/model.py:13 in __init__, right",
}
SET = HeldOut("heldout47", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=12
)
