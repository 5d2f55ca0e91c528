"""The fourth held-out set (truth_heldout4.yaml, HELDOUT4.md): 21 failures written as users report them, most in a
Hydra + Lightning app (m_app/), without reading crashmatrix's rules, each with its truth from running it alone.
Its runs were recorded once, before any rule changed (recorded/heldout4/); here every recorded cell's stderr.log
is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no torch), and held
to the truth's outcome, `signature_has` and `where`, as test_heldout3.py does for the third set.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's).
"""

from __future__ import annotations

from heldout_recorded import HeldOut

RUNS = {
    "app": ["app"],
    "app-plus": ["app-plus"],
    "single": ["single"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "torchrun": ["torchrun"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT4.md lists the run's)
UNTRUE = {
    ("m_hydra_val_fraction", "where"): "m_app/conf/data/m_holdout_all.yaml:2 in data, the case that set "
    "val_fraction: 1.0: the log alone does not show the class's own raise at m_app/parts.py:91 (the run records it)",
    ("m_pl_devices4", "where"): "no place: stderr.log holds Hydra's short error alone; the run named "
    "m_app/conf/trainer/cpu.yaml, not the case that set accelerator: gpu",
    ("m_ddp_rank1_exits_early", "signature_has"): "rank_ended_early: the cause itself, better than the truth's "
    "pattern (Connection closed by peer), written before the run",
}
SET = HeldOut("heldout4", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=21
)
