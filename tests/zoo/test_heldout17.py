"""The seventeenth held-out set (truth_heldout17.yaml, HELDOUT17.md): failures written as users report them, six
in a project laid out as the lightning-hydra-template is (d_proj/: a `.project-root` marker, `src/train.py` run as
a script, Hydra config groups and an `experiment` group, a LightningModule and a LightningDataModule, callbacks
from the config), without reading crashmatrix's rules, each with its truth from running it alone. Its runs were
recorded once, before any rule changed (recorded/heldout17/); here every recorded cell's stderr.log is diagnosed
again with today's rules, in this process (`crashmatrix diagnose`'s own function, no torch), and held to the
truth's outcome, `signature_has` and `where`, as test_heldout16.py does for the sixteenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT17.md lists the run's)
UNTRUE = {
    ("d_earlystop_mode_word", "where"): "no place: stderr.log holds Hydra's short form of the instantiate error (no "
    "traceback, HYDRA_FULL_ERROR unset); the run, under inject, named early_stopping.py:146 in __init__; "
    "src/utils/instantiators.py:19 in instantiate_callbacks, right",
    ("d_sigterm_watchdog", "outcome"): "pass: stderr.log holds only the watchdog's own line (`no progress ... "
    "terminating`) and no traceback; the run saw the signal and said crash SIGTERM",
    ("d_sigterm_watchdog", "where"): "no place (read as a pass); the run said :24 in watchdog, right",
    ("d_sys_exit_message", "outcome"): "pass: stderr.log holds only sys.exit's message line, which diagnose does not "
    "read as a failure; the run saw exit 1 and said fail",
    ("d_sys_exit_message", "signature_has"): "no signature (read as a pass); the run's was the message, masked, in "
    "check_config, right",
    ("d_sys_exit_message", "where"): "no place (read as a pass); the run said :11 in check_config, right",
}
SET = HeldOut("heldout17", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=14
)
