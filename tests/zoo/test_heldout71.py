"""The seventy-first held-out set (truth_heldout71.yaml, HELDOUT71.md): a training program written at a terminal
and run headless, as a batch job (an input() or getpass with no one to answer, a Tk window with no DISPLAY, the
terminal's size read from a file, curses with no TERM, tqdm on /dev/tty, a prompt in a DataLoader worker and on
rank 0, SIGHUP at the session's end, a segfault that loses the buffered log, a keyboard listener that never
answers), four in a new project (hd_proj/: a pyproject.toml marker, a package `batchkit`, an entry `train.py --case
NAME`), without reading crashmatrix's rules, each with its truth from running it alone. Its runs were recorded
once, before any rule changed (recorded/heldout71/); here every recorded cell's stderr.log is diagnosed again with
today's rules, in this process (`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome,
`signature_has` and `where`, as test_heldout69.py does for the sixty-ninth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT71.md lists the run's)
UNTRUE = {
    ("hd_sighup_session_closed", "outcome"): "pass: stderr.log is empty (killed by SIGHUP without a word, and "
    "stdout only the step lines); the run, which saw the signal, said crash SIGHUP",
    ("hd_sighup_session_closed", "signature_has"): "no signature: no failure found in an empty stderr.log; the run "
    "said killed_by_signal",
}
SET = HeldOut("heldout71", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=12
)
