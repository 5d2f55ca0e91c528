"""The sixteenth held-out set (truth_heldout16.yaml, HELDOUT16.md): failures written as users report them, six
in a src/-layout project whose root marker is a setup.cfg (b_proj/, `python b_proj/src/bfit/cli.py case=NAME`:
key=value arguments it parses itself, a pandas metadata table, PIL images made in memory, a callback registry, a
logging setup), two of them passing with a traceback on stderr, without reading crashmatrix's rules, each with
its truth from running it alone. Its runs were recorded once, before any rule changed (recorded/heldout16/);
here every recorded cell's stderr.log is diagnosed again with today's rules, in this process (`crashmatrix
diagnose`'s own function, no torch), and held to the truth's outcome, `signature_has` and `where`, as
test_heldout15.py does for the fifteenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT16.md lists the run's)
UNTRUE = {
    ("b_pass_logged_exception", "outcome"): "fail: the log holds a logged traceback (TypeError: Object of type "
    "float32 is not JSON serializable) and diagnose reads it as the failure; the run, which saw exit 0, said pass",
    ("b_pass_logged_exception", "where"): "json/encoder.py:180 in default; src/bfit/train.py:51 in write_summary, the "
    "handled error's place; the run said no place (a pass)",
}
SET = HeldOut("heldout16", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=14
)
