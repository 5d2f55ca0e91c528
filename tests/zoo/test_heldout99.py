"""The ninety-ninth held-out set (truth_heldout99.yaml, HELDOUT99.md): failures at the join of two subsystems of a
training stack (a torch.compile'd model's `_orig_mod.` checkpoint loaded into the eager model, Hydra's multirun
running a second DDP job in the process that holds the first one's process group, an async checkpoint thread whose
folder the rotation removed while the run exits 0, a spawn DataLoader worker reading through the main's address
and dying by SIGSEGV, a worker's RLIMIT_AS guard against shared-memory collation, a tokenizer's 200,000-deep trie
pickled for spawn workers overflowing the main's C stack, Python labels meeting autograd in torch's own INTERNAL
ASSERT (pytorch/pytorch#182283), a rank-reading worker_init_fn in rank 0's spawn evaluation loader under torchrun,
and a prefetch thread that dies on a worker's KeyError, leaving the main in queue.get for ever), written as users
report them, five in a new project (qe_proj/: a pyproject.toml marker, a package `qerun/`, an entry
`train.py --case NAME`), without reading crashmatrix's rules, each with its truth from running it alone. Its runs
were recorded once, before any rule changed (recorded/heldout99/); here every recorded cell's stderr.log is
diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no torch), and held to
the truth's outcome, `signature_has` and `where`, as test_heldout98.py does for the ninety-eighth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT99.md lists the run's)
UNTRUE = {
    (
        "async_ckpt_rotate",
        "outcome",
    ): "fail, from the writer thread's `Exception in thread ckpt-writer` traceback (RuntimeError: "
    "Parent directory ... does not exist.) read without the exit status 0 (the run, with it, said pass)",
    (
        "async_ckpt_rotate",
        "where",
    ): "torch/serialization.py:828 in __init__; qerun/ckpt.py:29 in _write: the thread's place, for "
    "a run that exited 0 (the run said none)",
}
SET = HeldOut("heldout99", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=8
)
