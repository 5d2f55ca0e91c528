"""The eighty-second held-out set (truth_heldout82.yaml, HELDOUT82.md): failures of a training program's own C
code, built with gcc at run time and loaded with ctypes, written as users report them, four in a new project
(nc_proj/: a pyproject.toml marker, an entry train.py with argparse `--case NAME`, a package fastc/ with the C
source, a decoder and a shard dataset), without reading crashmatrix's rules, each with its truth from running it
alone. Its runs were recorded once, before any rule changed (recorded/heldout82/); here every recorded cell's
stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no
torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout19.py does for the
nineteenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT82.md lists the run's)
UNTRUE = {
    ("nc_free_view_pointer", "signature_has"): "glibc_heap_check: double free or corruption (out) in "
    "zoo/modes/nc_free_view_pointer.py:release_all (and free(): invalid size in another repeat), as the run said "
    "(counted untrue there): the signature follows glibc's words, which vary with the bytes before the view",
}
SET = HeldOut("heldout82", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=10
)
