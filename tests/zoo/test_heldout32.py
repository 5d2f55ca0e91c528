"""The thirty-second held-out set (truth_heldout32.yaml, HELDOUT32.md): image pipelines and per-batch image logging,
written as users report them, nine in a new project (vi_proj/: a pyproject.toml marker, a src/ layout package
segkit made importable by PYTHONPATH=src, an entry scripts/train_seg.py taking `case=NAME workers=2 log_every=1`,
small images and masks it writes itself), without reading crashmatrix's rules, each with its truth from running it
alone. Its runs were recorded once, before any rule changed (recorded/heldout32/); here every recorded cell's
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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT32.md lists the run's)
UNTRUE = {
    ("vi_hang_fg_crop_retry", "where"): "no failure found in 5 of the 6 stderr.logs (empty: the program printed "
    "only to stdout before it froze); in hangs-plain's repeat 1 the kill at the time limit made the main print the "
    "loader's `DataLoader worker (pid N) is killed by signal: Terminated`, read as worker_signal, heard of at "
    "zoo/modes/vi_hang_fg_crop_retry.py:38 in main; the run read the stacks and named the main at :38 in main, right",
}
SET = HeldOut("heldout32", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=13
)
