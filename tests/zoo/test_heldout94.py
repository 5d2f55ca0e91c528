"""The ninety-fourth held-out set (truth_heldout94.yaml, HELDOUT94.md): a CPU training program that runs out of memory
under a limit that is its own or its launcher's (RLIMIT_AS, RLIMIT_DATA, RLIMIT_STACK, `prlimit`): graphs kept over
steps, a shape read wrongly in a loader worker, LMDB's map refused, a native recursion past the stack, a C++
`bad_array_new_length` in a worker, a thread pool's stacks, a child's json encoder and a child's numpy, a rank's
embedding, and three hangs (a dead prefetch thread, a rank that skipped its out-of-memory batch, a monitor thread
at exit), three in a new project (om_proj/: a pyproject.toml marker, a package `memtrain/`, an entry
`train.py --case NAME`), written without reading crashmatrix's rules, each with its truth from running it alone.
Its runs were recorded once, before any rule changed (recorded/heldout94/); here every recorded cell's stderr.log
is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no torch), and held
to the truth's outcome, `signature_has` and `where`, as test_heldout83.py does for the eighty-third set.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said.
"""

from __future__ import annotations

from heldout_recorded import HeldOut

RUNS = {
    "app": ["app"],
    "single": ["single"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "torchrun": ["torchrun"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT94.md lists the run's)
UNTRUE = {
    ("om_decode_threads_as", "outcome"): "fail (RuntimeError: can't start new thread), where the thread's stack was "
    "refused by the program's own RLIMIT_AS: a memory limit, oom (the run said the same)",
}
SET = HeldOut("heldout94", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=10
)
