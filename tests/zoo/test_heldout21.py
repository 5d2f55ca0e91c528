"""The twenty-first held-out set (truth_heldout21.yaml, HELDOUT21.md): failures below Python (native code,
processes, signals) written as users report them, five in a new project (i_proj/: a setup.py marker, an argparse
`train.py --preset NAME` script that also takes key=value overrides, a package i_ops/ whose C helper is built with
gcc at first use and loaded with ctypes), without reading crashmatrix's rules, each with its truth from running it
alone. Its runs were recorded once, before any rule changed (recorded/heldout21/); here every recorded cell's
stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no
torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout19.py does for the nineteenth
set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT21.md lists the run's)
UNTRUE = {
    ("i_heap_overrun", "outcome"): "timeout, as the run said (counted untrue there): the cell stalled after glibc's "
    "abort words (torch's fatal-signal handler waiting on malloc's lock, since mended), and the stacks.txt beside "
    "its stderr.log shows its main alive in pack_row at the kill",
    ("i_heap_overrun", "signature_has"): "hang in i_ops/native.py:pack_row, as the run said (counted untrue there): "
    "the stall's, read from the stacks.txt beside the log",
    ("i_sigpipe_log_head", "outcome"): "no failure found: stderr.log is empty (killed by SIGPIPE without a word); "
    "the run, which saw the signal, said crash SIGPIPE",
    ("i_sigpipe_log_head", "where"): "no failure found, so no place; the run said no place either",
    ("i_killpg_own_group", "outcome"): "no failure found: stderr.log is empty (killed by SIGTERM); the run, which "
    "saw the signal, said crash SIGTERM",
    ("i_killpg_own_group", "where"): "no failure found, so no place; the run said "
    "zoo/modes/i_killpg_own_group.py:17 in stop_dashboard, right",
}
SET = HeldOut("heldout21", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=14
)
