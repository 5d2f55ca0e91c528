"""The twelfth held-out set (truth_heldout12.yaml, HELDOUT12.md): failures written as users report them, six in a
Lightning project without Hydra, run by a plain argparse script and built by the project's own registry (w_proj/,
`python train.py --config configs/NAME.yaml`, or `config=NAME` as a sweep passes it), without reading
crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once, before any rule
changed (recorded/heldout12/); here every recorded cell's stderr.log is diagnosed again with today's rules, in this
process (`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome, `signature_has` and
`where`, as test_heldout11.py does for the eleventh set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT12.md lists the run's)
UNTRUE = {
    ("w_alarm_watchdog", "outcome"): "no failure found: stderr.log is empty (SIGALRM's default action ends the "
    "process with nothing printed); the run read the exit status and said crash SIGALRM, right",
    ("w_alarm_watchdog", "signature_has"): "no signature (no failure found in an empty stderr.log); the run said "
    "killed_by_signal, right",
    ("w_alarm_watchdog", "where"): "no failure found; the run named no place either (counted untrue there): the "
    "truth is the sleep in upload_checkpoint at :21, from :34 in main",
}
SET = HeldOut("heldout12", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=16
)
