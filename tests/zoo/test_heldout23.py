"""The twenty-third held-out set (truth_heldout23.yaml, HELDOUT23.md): failures written as users report them, six
in a new Hydra + Lightning project (l_proj/: a `.project-root` marker, `python src/train.py +experiment=NAME`,
config groups data/model/logger/callbacks/experiment, a WandbLogger offline and per-batch image logging, timestamped
Hydra output dirs), without reading crashmatrix's rules, each with its truth from running it alone. Its runs were
recorded once, before any rule changed (recorded/heldout23/); here every recorded cell's stderr.log is diagnosed
again with today's rules, in this process (`crashmatrix diagnose`'s own function, no torch), and held to the
truth's outcome, `signature_has` and `where`, as test_heldout19.py does for the nineteenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT23.md lists the run's)
UNTRUE = {
    ("l_optim_no_partial", "where"): "no place: Hydra printed no traceback (no HYDRA_FULL_ERROR), and diagnose, "
    "away from the app's configs, cannot name the config file; the run named configs/model/cnn.yaml:1 in "
    "model.optimizer.params, the default group's file, where +experiment=l_optim_no_partial had swapped in "
    "configs/model/cnn_adamw.yaml (untrue)",
}
SET = HeldOut("heldout23", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=13
)
