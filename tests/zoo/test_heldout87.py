"""The eighty-seventh held-out set (truth_heldout87.yaml, HELDOUT87.md): object lifetimes in a training program
(`__del__`, weakref.finalize, weak dictionaries and proxies, gc.callbacks, context managers' `__exit__`,
interpreter shutdown, mmap'd and ctypes memory freed under a view) in the main, DataLoader workers, a child process
and a torchrun rank, written as users report them, four in a new project (gc_proj/: a pyproject.toml marker, a
package `lifetimes/`, an entry `train.py --case NAME`), without reading crashmatrix's rules, each with its truth
from running it alone. Its runs were recorded once, before any rule changed (recorded/heldout87/); here every
recorded cell's stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own
function, no torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout19.py does for
the nineteenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT87.md lists the run's)
UNTRUE = {
    ("view_outlives_mapping", "where"): "nothing for r0, `libtorch_cpu.so (+0x6cf3a6c)` without the program's frame "
    "for r2 (no Python frame in its faulthandler dump); r1 gave the true place",
    ("gc_ddp_rank1_free_offset", "signature_has"): "glibc_heap_check in zoo/modes/gc_ddp_rank1_free_offset.py:__del__: "
    "glibc's `free(): invalid pointer` of a pointer the program moved, classed as heap corruption",
}
SET = HeldOut("heldout87", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=10
)
