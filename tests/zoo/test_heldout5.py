"""The fifth held-out set (truth_heldout5.yaml, HELDOUT5.md): 19 failures written as users report them, nine in a
Hydra + Lightning project laid out as lightning-hydra-template's (n_proj/), without reading crashmatrix's rules,
each with its truth from running it alone. Its runs were recorded once, before any rule changed
(recorded/heldout5/); here every recorded cell's stderr.log is diagnosed again with today's rules, in this process
(`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome, `signature_has` and `where`,
as test_heldout4.py does for the fourth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT5.md lists the run's)
UNTRUE = {
    ("n_pl_precision_bad", "where"): "no place: stderr.log holds Hydra's short error alone; a run places it from "
    "the exception Hydra handled, which the cell recorded (lightning_fabric/connector.py ...; train.py:16)",
    ("n_pool_worker_sigkill", "outcome"): "fail, no signal: the main's BrokenProcessPool names no signal, and the "
    "worker killed by SIGKILL printed nothing; a run under inject records the death since (worker_crash SIGKILL)",
}
SET = HeldOut("heldout5", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=19
)
