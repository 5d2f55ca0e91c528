"""The eighty-eighth held-out set (truth_heldout88.yaml, HELDOUT88.md): a training program whose Dataset reads a data
store from DataLoader workers (LMDB environments cut short, short of reader slots, reopened after fork or locked by
a writer; SQLite, tar shards, PNG files, a pickle cache written while read, the program's own mmap'd shard format
through ctypes, .npy headers through a child's queue, a rank's division by zero in libc), written as users report
them, six in a new project (ds_proj/: a pyproject.toml marker, a package `dstore/`, an entry `train.py --case
NAME`), without reading crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once,
before any rule changed (recorded/heldout88/); here every recorded cell's stderr.log is diagnosed again with today's
rules, in this process (`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome,
`signature_has` and `where`, as test_heldout19.py does for the nineteenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT88.md lists the run's)
UNTRUE: dict[tuple[str, str], str] = {}
SET = HeldOut("heldout88", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=10
)
