"""The thirty-third held-out set (truth_heldout33.yaml, HELDOUT33.md): failures of hyperparameter-search harnesses
written as users report them, eight in a new project (hp_proj/: an empty .project-root marker, no .git, a package
`tunekit` run as `python -m tunekit.search` with argparse options whose study crashmatrix sets through its own
environment variable; trials in process pools, threads and child processes), without reading crashmatrix's rules,
each with its truth from running it alone. Its runs were recorded once, before any rule changed
(recorded/heldout33/); here every recorded cell's stderr.log is diagnosed again with today's rules, in this process
(`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome, `signature_has` and `where`, as
test_heldout19.py does for the nineteenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT33.md lists the run's)
UNTRUE = {
    ("hp_pool_trial_sys_exit", "outcome"): "pass: stderr.log holds only the SystemExit's message `trial 1: loss is "
    "inf at step 9, stopping` and no traceback; diagnose has no exit status (the run, which had it, said fail)",
    ("hp_pool_trial_sys_exit", "signature_has"): "no failure found in stderr.log alone (the run said `trial N: loss "
    "is inf at step N, stopping`, right)",
    ("hp_pool_trial_sys_exit", "where"): "no failure found in stderr.log alone (the run gave no place either: the "
    "worker's sys.exit at zoo/modes/hp_pool_trial_sys_exit.py:25 in objective is printed nowhere; a run under "
    "inject places it there since, from the worker's recorded call: tests/test_worker_exit.py)",
}
SET = HeldOut("heldout33", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=14
)
