"""The 101st held-out set (truth_heldout101.yaml, HELDOUT101.md): distributed training beyond the basics, 2 gloo ranks
on CPU (an lmdb index broadcast with broadcast_object_list, a step watchdog's SIGALRM that only rank 0 handles,
DDP's join() with a per-step logging all_reduce that gloo aborts, reentrant checkpointing on one rank with
find_unused_parameters, rank 0 destroying its process group after a shorter evaluation, a head replaced after DDP
wrapped the model on one rank, a 0-byte image in rank 1's loader worker under torchrun --max-restarts=1, a barrier
that only rank 0 calls), written as users report them, three in a new project (zr_proj/: a pyproject.toml marker, a
package `zrun/`, an entry `train.py --case NAME` starting its ranks with mp.spawn), without reading crashmatrix's
rules, each with its truth from running it alone. Its runs were recorded once, before any rule changed
(recorded/heldout101/); here every recorded cell's stderr.log is diagnosed again with today's rules, in this process
(`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome, `signature_has` and `where`, as
test_heldout98.py does for the ninety-eighth set.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's).
"""

from __future__ import annotations

from heldout_recorded import HeldOut

RUNS = {
    "app": ["app"],
    "torchrun": ["torchrun"],
    "restarts": ["restarts"],
    "hangs": ["hangs-inject", "hangs-plain"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT101.md lists the run's)
UNTRUE = {
    ("alarm_rank1_step", "where"): "no place at all (empty): rank 1, killed by SIGALRM's default action, printed no "
    "frame, and rank 0's frames are not the verdict's (the truth: zrun/cases.py:41 or :40 in _watched_rank)",
}
SET = HeldOut("heldout101", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=8
)
