"""The fifteenth held-out set (truth_heldout15.yaml, HELDOUT15.md): failures written as users report them, six
in a plain-torch project configured by environment variables (z_proj/, `Z_PRESET=NAME python
z_proj/scripts/train.py`: a custom Sampler and BatchSampler, a collate_fn returning a dict, a scheduler, bf16
autocast on CPU, checkpoints between stages), without reading crashmatrix's rules, each with its truth from
running it alone. Its runs were recorded once, before any rule changed (recorded/heldout15/); here every
recorded cell's stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own
function, no torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout13.py does
for the thirteenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT15.md lists the run's)
UNTRUE = {
    ("z_subprocess_child_sigkill", "where"): "the main process heard of it at "
    "zoo/modes/z_subprocess_child_sigkill.py:22 in main: the child's own kill at :17 in build_shard is recorded only "
    "under inject (the run places it there since); a log holds no word of it",
}
SET = HeldOut("heldout15", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=14
)
