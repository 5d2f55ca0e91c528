"""The eighty-sixth held-out set (truth_heldout86.yaml, HELDOUT86.md): a training program that coordinates two
processes with torch.distributed's building blocks other than tensor collectives (torch.distributed.rpc between a
trainer and a parameter server, c10d stores: TCPStore, FileStore, PrefixStore, and the object collectives), written
as users report them, five in a new project (rp_proj/: a pyproject.toml marker, a package `psrv/` whose launch.py
starts its ranks with mp.spawn, an entry `train.py --case NAME`), without reading crashmatrix's rules, each with its
truth from running it alone. Its runs were recorded once, before any rule changed (recorded/heldout86/); here every
recorded cell's stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own
function, no torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout19.py does for the
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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT86.md lists the run's)
UNTRUE = {
    ("rp_child_watchdog_sigkill", "outcome"): "fail, no signal: the main's own RuntimeError about its dead child (exit "
    "code -9), not the child's SIGKILL that came first (the run said the same)",
    ("rp_child_watchdog_sigkill", "where"): "zoo/modes/rp_child_watchdog_sigkill.py:53 in main: the main's raise, not "
    "the child's watchdog (:33), which only its own line on stdout names (the run said the same)",
}
SET = HeldOut("heldout86", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=10
)
