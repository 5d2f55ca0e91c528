"""The second held-out set (truth_heldout2.yaml, HELDOUT2.md): 28 failures written as users report them, without
reading crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once, before any
rule changed (recorded/heldout2/); here every recorded cell's stderr.log is diagnosed again with today's rules,
in this process (`crashmatrix diagnose`'s own function, no torch, about 5 CPU-s for the 93 cells), and held to
the truth's outcome, `signature_has` and `where`.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said: the test
records today's state and fails (XPASS) once a rule gives the truth. What only a run can know is left out,
as tests/diagnose_agreement.py leaves it out: a hang's outcome (the kill at the time limit is the run's).
"""

from __future__ import annotations

from heldout_recorded import HeldOut

RUNS = {
    "single": ["single"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "hydra": ["hydra"],
    "lightning": ["lightning"],
    "torchrun": ["torchrun"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT2.md lists the run's)
UNTRUE = {
    ("h_thread_stack_overflow", "outcome"): "no failure: the log is empty (faulthandler cannot run on the "
    "overflowed thread's stack); the run said crash SIGSEGV from the exit status alone",
    ("h_thread_stack_overflow", "signature_has"): "no signature (the run's: killed_by_signal, with no place)",
    ("h_thread_stack_overflow", "where"): "no place; the truth is zoo/modes/h_thread_stack_overflow.py:9 in depth",
}
# h_hydra_interp_missing's where: since diagnose finds the Hydra app by its traceback's script, it gives the
# config line, the truth
# h_pl_log_on_train_end: diagnose gives the truth, the run's row named the hook twice (HELDOUT2.md, untrue there)
SET = HeldOut("heldout2", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=26
)
