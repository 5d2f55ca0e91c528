"""The twenty-seventh held-out set (truth_heldout27.yaml, HELDOUT27.md): failures of the machinery a training
program builds around its loop (its own signal handlers, excepthooks, atexit hooks, warnings made errors, logging
handlers, watchdog threads, helper processes and pools), written as users report them, eight in a new project
(ex_proj/: a monorepo folder with no root marker of its own, started through a bash launcher that execs
`python -m exkit.train case=NAME`), without reading crashmatrix's rules, each with its truth from running it
alone. Its runs were recorded once, before any rule changed (recorded/heldout27/); here every recorded cell's
stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no
torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout19.py does for the
nineteenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT27.md lists the run's)
UNTRUE = {
    ("ex_watchdog_os_exit", "outcome"): "no failure found: stderr.log holds only the watchdog's line before its "
    "os._exit(1), no traceback (the run, which saw exit 1, said fail at ex_proj/exkit/machinery.py:57 in run, right)",
    ("ex_watchdog_os_exit", "signature_has"): "no signature (no failure found in the log alone)",
    ("ex_watchdog_os_exit", "where"): "no place (no failure found in the log alone)",
}
SET = HeldOut("heldout27", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=16
)
