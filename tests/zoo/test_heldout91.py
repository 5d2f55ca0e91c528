"""The ninety-first held-out set (truth_heldout91.yaml, HELDOUT91.md): a training program built as a Hydra app (config
groups, a structured trainer schema, a custom resolver, instantiate with _partial_ and _recursive_, the run directory
per run, a --multirun sweep, a callback) and the code it calls with the composed config: DataLoader workers, ranks
started by mp.spawn or torchrun, the app's own C++ through ctypes. Six cases live in a new project (hr_proj/: a
pyproject.toml marker, a package `hr_pkg/`, an entry `train.py --case NAME` whose cases are Hydra overrides), the
rest are zoo modes that are Hydra apps themselves; written as users report them, without reading crashmatrix's
rules, each with its truth from running it alone. Its runs were recorded once, before any rule changed
(recorded/heldout91/); here every recorded cell's stderr.log is diagnosed again with today's rules, in this process
(`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome, `signature_has` and `where`, as
test_heldout19.py does for the nineteenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT91.md lists the run's)
UNTRUE: dict[tuple[str, str], str] = {}
SET = HeldOut("heldout91", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=10
)
