"""The seventh held-out set (truth_heldout7.yaml, HELDOUT7.md): 18 failures written as users report them, seven in a
Hydra + Lightning project whose configs ship inside its package and which runs as a module (q_proj/, `python -m
q_pkg.train`), without reading crashmatrix's rules, each with its truth from running it alone. Its runs were
recorded once, before any rule changed (recorded/heldout7/); here every recorded cell's stderr.log is diagnosed
again with today's rules, in this process (`crashmatrix diagnose`'s own function, no torch), and held to the
truth's outcome, `signature_has` and `where`, as test_heldout6.py does for the sixth set.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's).
"""

from __future__ import annotations

from heldout_recorded import HeldOut

RUNS = {
    "app": ["app"],
    "app2": ["app2"],
    "single": ["single"],
    "single2": ["single2"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "hangs2": ["hangs2-inject", "hangs2-plain"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT7.md lists the run's)
UNTRUE = {
    ("q_spawn_rank_sys_exit", "where"): "torch/multiprocessing/spawn.py:200 in join; "
    "zoo/modes/q_spawn_rank_sys_exit.py:30 in main, the parent's mp.spawn call: rank 1 printed no traceback; a run "
    "under inject places it at the rank's recorded sys.exit(3) since (:19 in run)",
}
SET = HeldOut("heldout7", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=18
)
