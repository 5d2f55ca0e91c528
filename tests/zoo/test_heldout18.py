"""The eighteenth held-out set (truth_heldout18.yaml, HELDOUT18.md): failures written as users report them, seven
in a project started through its launcher script (e_proj/: a pyproject.toml marker, a package run as `python -m
e_pkg.run` by `bash scripts/train.sh experiment=NAME`, which does not exec python; PyYAML settings, a model registry,
a DataLoader with workers, checkpoints under runs/, a C helper built at first use), without reading crashmatrix's
rules, each with its truth from running it alone. Its runs were recorded once, before any rule changed
(recorded/heldout18/); here every recorded cell's stderr.log is diagnosed again with today's rules, in this process
(`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome, `signature_has` and `where`, as
test_heldout17.py does for the seventeenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT18.md lists the run's)
UNTRUE = {
    ("e_shell_unbound_master_addr", "outcome"): "pass: stderr.log holds only bash's `.../scripts/train.sh: line 25: "
    "MASTER_ADDR: unbound variable`, which diagnose does not read as a failure; the run saw exit 1 and said fail",
    ("e_shell_unbound_master_addr", "signature_has"): "no signature (read as a pass); the run's was bash's line, "
    "masked (`…/train.sh: line N: MASTER_ADDR: unbound variable`), right",
    ("e_shell_unbound_master_addr", "where"): "no place (read as a pass); the run gave none either (untrue there too)",
}
SET = HeldOut("heldout18", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=14
)
