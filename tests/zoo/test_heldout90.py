"""The ninetieth held-out set (truth_heldout90.yaml, HELDOUT90.md): a training program built on PyTorch Lightning on
the CPU (DataLoader workers, Lightning's own `ddp` launcher and `ddp_spawn` with 2 gloo processes, Lightning's ddp
under torchrun, callbacks that raise, hang or run native code, checkpoint resuming, `bf16-mixed`, torchmetrics),
written as users report it, six in a new project (lk_proj/: a pyproject.toml marker, a package `lk_pkg/` with its
data, model and cases, an entry `train.py --case NAME`), without reading crashmatrix's rules, each with its truth from
running it alone. Its runs were recorded once, before any rule changed (recorded/heldout90/); here every recorded
cell's stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no
torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout83.py does for the
eighty-third set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT90.md lists the run's)
UNTRUE: dict[tuple[str, str], str] = {}
SET = HeldOut("heldout90", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=10
)
