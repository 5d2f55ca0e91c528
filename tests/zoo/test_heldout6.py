"""The sixth held-out set (truth_heldout6.yaml, HELDOUT6.md): 20 failures written as users report them, eight in a
src-layout Hydra + Lightning project with structured configs (p_proj/), without reading crashmatrix's rules, each
with its truth from running it alone. Its runs were recorded once, before any rule changed (recorded/heldout6/);
here every recorded cell's stderr.log is diagnosed again with today's rules, in this process (`crashmatrix
diagnose`'s own function, no torch), and held to the truth's outcome, `signature_has` and `where`, as
test_heldout5.py does for the fifth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT6.md lists the run's)
UNTRUE = {
    ("p_worker_os_exit", "where"): "the main process heard of it at zoo/modes/p_worker_os_exit.py:27 in main: the "
    "worker's os._exit(0) at :12 printed nothing; a run under inject records it since (last_exit, an exit 0 of a "
    "multiprocessing child)",
    ("p_ddp_rank1_sigkill", "signature_has"): "killed_by_signal: the class word, with the signal in its own column "
    "(the run said gloo_peer_lost, rank 0's, before torchrun's unsent SIGKILL was read as the cause)",
    ("p_ddp_rank1_sigkill", "where"): "no place: rank 1 printed nothing as it died (the run said rank 0's "
    "all_reduce before the fix)",
}
SET = HeldOut("heldout6", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=20
)
