"""The eighty-first held-out set (truth_heldout81.yaml, HELDOUT81.md): how a training program ends, written as users
report it, four in a new project (sd_proj/: a pyproject.toml marker, an argparse entry `python train.py --case NAME`,
a package endkit/ with its cleanups, workers and loop), without reading crashmatrix's rules, each with its truth from
running it alone. Its runs were recorded once, before any rule changed (recorded/heldout81/); here every recorded
cell's stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no
torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout19.py does for the nineteenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT81.md lists the run's)
UNTRUE = {
    ("c_exit_handler_segv", "outcome"): "pass: stderr.log is empty (the C exit handler faulted after the "
    "interpreter had finished, with no Python frame to dump); the run, which saw the signal, said crash SIGSEGV",
    ("c_exit_handler_segv", "signature_has"): "no signature: no failure found in an empty stderr.log; the run said "
    "killed_by_signal at exit",
    ("c_exit_handler_segv", "where"): "no place: nothing in an empty stderr.log; the run said libc.so.6 (+0x16e0ba); "
    "at exit",
    ("sd_sigterm_handler_exit", "outcome"): "pass: stderr.log holds only the handler's `caught signal 15: checkpoint "
    "saved, exiting` (no traceback: sys.exit(143) in the handler); the run, which saw exit status 143, said fail",
    ("sd_sigterm_handler_exit", "signature_has"): "no signature: no failure found in the handler's one line; the run "
    "said `caught signal N: checkpoint saved, exiting in zoo/modes/sd_sigterm_handler_exit.py:on_term`",
    ("sd_sigterm_handler_exit", "where"): "no place: the handler's line names no frame; the run said "
    "zoo/modes/sd_sigterm_handler_exit.py:18 in on_term",
    ("sd_atexit_sigkill_self", "outcome"): "pass: stderr.log is empty (the program's atexit hook SIGKILLed its own "
    "process without a word); the run, which saw the signal, said crash SIGKILL",
    ("sd_atexit_sigkill_self", "where"): "no place: nothing in an empty stderr.log; the run said "
    "zoo/modes/sd_atexit_sigkill_self.py:14 in fast_exit",
    ("sd_abort_after_error", "outcome"): "fail, no signal: the IndexError's traceback and then `featcache: 1 handle(s) "
    "still open at unload`, the first failure taken as the outcome; the process died by SIGABRT (the run said the "
    "same: fail, `then killed by SIGABRT at exit`)",
}
SET = HeldOut("heldout81", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=12
)
