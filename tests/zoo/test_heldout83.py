"""The eighty-third held-out set (truth_heldout83.yaml, HELDOUT83.md): failures of torch's elastic launcher met by a
training program on the CPU with 2 gloo ranks (restarts, a rank ending early, a silent rendezvous endpoint, a
watchdog's SIGKILL, @record), written as users report them, four in a new project (el_proj/: a pyproject.toml
marker, a package `elastic/` that launches its own ranks with `elastic_launch`, an entry `train.py --case NAME`),
without reading crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once, before
any rule changed (recorded/heldout83/); here every recorded cell's stderr.log is diagnosed again with today's rules,
in this process (`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome, `signature_has`
and `where`, as test_heldout19.py does for the nineteenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT83.md lists the run's)
UNTRUE = {
    ("el_rank0_watchdog_sigkill", "where"): "no place: a SIGKILL leaves no faulthandler dump, and the watchdog's "
    "own line names no frame (the run said the same)",
}
SET = HeldOut("heldout83", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=10
)
