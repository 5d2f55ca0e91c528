"""The hundred-and-second held-out set (truth_heldout102.yaml, HELDOUT102.md): the output a failure is read from,
shaped by the program's own logging and console stack (JSON log lines holding logger.exception's traceback before
exit 1, a tqdm bar over a DataLoader worker's truncated-JPEG error re-raised `from` it, stderr sent by the program
to its own file with a one-line summary on stdout, a child's piped log filling the pipe while the parent waits,
wandb offline's console lines around a cut checkpoint, faulthandler writing to files the program chose while a
worker and a rank die by SIGSEGV, a rank's own logging excepthook), written as users report them, four in a new
project (vq_proj/: a pyproject.toml marker, a package `vqrun/`, an entry `train.py --case NAME`), without reading
crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once, before any rule
changed (recorded/heldout102/); here every recorded cell's stderr.log is diagnosed again with today's rules, in
this process (`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome, `signature_has`
and `where`, as test_heldout98.py does for the ninety-eighth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT102.md lists the run's)
UNTRUE = {
    ("json_strict_warning", "where"): "no place: the traceback is inside one JSON line's escaped exc_info field "
    "(the run, with its exit status and inject, said vqrun/model.py:17 in build_targets)",
    ("redirect_summary", "outcome"): "no failure: stderr.log is empty, the program sent fd 2 to its own train.err "
    "(the run, with its exit status, said fail)",
    ("redirect_summary", "signature_has"): "nothing from an empty stderr.log (the run said ValueError: all input "
    "arrays must have the same shape)",
    ("redirect_summary", "where"): "nothing from an empty stderr.log (the run said numpy/_core/shape_base.py:458 "
    "in stack; vqrun/data.py:48 in stack_features)",
    ("vq_faultfile_worker_segv", "where"): "libc.so.6 (+0x16d809) alone: faulthandler's dump went to the "
    "program's fault-worker1.log, not stderr (the run said the same)",
    ("vq_ddp_faultfile_rank_segv", "where"): "libc.so.6 (+0x16d809) alone: faulthandler's dump went to the "
    "program's crash-rank1.log, not stderr (the run said the same)",
}
SET = HeldOut("heldout102", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=8
)
