"""The eighth held-out set (truth_heldout8.yaml, HELDOUT8.md): 18 failures written as users report them, six in a
Hydra + Lightning project with a src layout, an entry script outside its package and a structured schema
(s_proj/, `PYTHONPATH=src python scripts/fit.py`), without reading crashmatrix's rules, each with its truth from
running it alone. Its runs were recorded once, before any rule changed (recorded/heldout8/); here every recorded
cell's stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function,
no torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout7.py does for the seventh
set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT8.md lists the run's)
UNTRUE = {
    ("s_worker_cpu_limit", "where"): "the main process heard of it at zoo/modes/s_worker_cpu_limit.py:30 in main: "
    "the worker printed no stack (faulthandler skips SIGXCPU); a run under inject places it at the worker's :24 "
    "since (its dump as it died). Before: torch/utils/data/_utils/signal_handling.py:73 in handler, and no signal",
}
SET = HeldOut("heldout8", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=18
)
