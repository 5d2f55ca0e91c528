"""The eleventh held-out set (truth_heldout11.yaml, HELDOUT11.md): failures written as users report them, five in a
Lightning Fabric project whose configs are composed with Hydra's compose API, marked by a `setup.py` alone and run
as a module (v_proj/, `python -m v_app.cli experiment=NAME`), without reading crashmatrix's rules, each with its
truth from running it alone. Its runs were recorded once, before any rule changed (recorded/heldout11/); here every
recorded cell's stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own
function, no torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout10.py does for
the tenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT11.md lists the run's)
UNTRUE = {
    ("v_ddp_rank1_worker_killed", "signature_has"): "worker_signal, as the run said (counted untrue there): no signal, "
    "no place; the row's outcome (worker_crash SIGKILL), rank 1 and where (:27 in run) are right",
}
SET = HeldOut("heldout11", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=16
)
