"""The ninety-fifth held-out set (truth_heldout95.yaml, HELDOUT95.md): a training program's data pipeline meets
third-party native code on the CPU (numpy's frombuffer, scipy.sparse's unchecked indices and its full check,
scipy.signal and scipy.ndimage refusing their arguments, Pillow's text-chunk limit under spawn workers and its
frombytes, PyYAML's C loader on deep nesting, lzma in a pool's child, zlib in a prefetch thread, `regex`
backtracking in a gloo rank, glibc's realloc via ctypes in a torchrun rank), written as users report them, four in
a new project (nl_proj/: a pyproject.toml marker, a package `nlpipe/`, an entry `train.py --case NAME`), without
reading crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once, before any
rule changed (recorded/heldout95/); here every recorded cell's stderr.log is diagnosed again with today's rules,
in this process (`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome,
`signature_has` and `where`, as test_heldout83.py does for the eighty-third set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT95.md lists the run's)
UNTRUE = {
    ("nl_ddp_realloc_view", "signature_has"): "glibc_heap_check in zoo/modes/nl_ddp_realloc_view.py:grow, for a "
    "pointer malloc never returned (`realloc(): invalid pointer`): nothing corrupted the heap (the run said the same)",
}
SET = HeldOut("heldout95", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=10
)
