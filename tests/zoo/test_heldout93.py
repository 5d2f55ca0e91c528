"""The ninety-third held-out set (truth_heldout93.yaml, HELDOUT93.md): failures that travel through Python 3.11's
own exception machinery around a training program on the CPU (a TaskGroup's nested ExceptionGroups, `raise ... from`
with a note in a DataLoader worker, an __exit__ that raises or segfaults while an exception unwinds, a pool child's
RemoteTraceback with implicit chaining, a ProcessPoolExecutor child's SIGSEGV gathered into an ExceptionGroup, a
BaseException subclass escaping a worker, a __str__ that raises under a replaced sys.excepthook, a threading.excepthook
that SIGKILLs its gloo rank, a TaskGroup kept open by a task that swallows its cancellation, an executor thread joined
at exit), written as users report them, five in a new project (eg_proj/: a pyproject.toml marker, a package `egtrain/`,
an entry `train.py --case NAME`), without reading crashmatrix's rules, each with its truth from running it alone. Its
runs were recorded once, before any rule changed (recorded/heldout93/); here every recorded cell's stderr.log is
diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no torch), and held to
the truth's outcome, `signature_has` and `where`, as test_heldout83.py does for the eighty-third set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT93.md lists the run's)
UNTRUE = {
    ("worker_label_note", "where"): "`egtrain/data.py:33 in __getitem__`, the `raise ... from e`, not :29 where the "
    "lookup raised the ValueError first",
    # contested (HELDOUT93.md, After): the handler's error is the failure, as own_cleanup.py judges an except body's
    ("eg_pool_remote_handler_fails", "where"): "`:25 in count_tokens`, the handler's TypeError that its signature "
    "names, not the zlib line :23 that the handler had caught",
    ("eg_pool_remote_handler_fails", "signature_has"): "the handler's TypeError (`TypeError: 'PosixPath' object is not "
    "subscriptable in ...:count_tokens`), not the zlib.error raised first in the child",
}
SET = HeldOut("heldout93", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=10
)
