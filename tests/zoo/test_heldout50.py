"""The fiftieth held-out set (truth_heldout50.yaml, HELDOUT50.md): a training program meeting the operating
system's limits on the CPU (RLIMIT_FSIZE, RLIMIT_CPU, RLIMIT_AS, RLIMIT_STACK), set by the program or by the job
script that starts it; four in a new project (rx_proj/: a pyproject.toml marker, an argparse entry train.py
started by the job script run.sh, which sets `ulimit -f` and `ulimit -S -t` and execs it), written without
reading crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once, before any
rule changed (recorded/heldout50/); here every recorded cell's stderr.log is diagnosed again with today's rules,
in this process (`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome,
`signature_has` and `where`, as test_heldout19.py does for the nineteenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT50.md lists the run's)
UNTRUE = {
    ("rx_main_cpu_time", "outcome"): "pass: stderr.log holds nothing of the death (SIGXCPU leaves no traceback and no "
    "faulthandler dump); the run, which saw the exit status, said crash SIGXCPU, right",
    ("rx_main_cpu_time", "signature_has"): "no signature (nothing failed in the log); the run said "
    "`killed_by_signal in limitkit/train.py:pretrain_features`, right",
    ("rx_main_cpu_time", "where"): "no place; the run named limitkit/train.py:30 in pretrain_features, right",
    ("rx_prefetch_thread_as", "outcome"): "fail (RuntimeError: can't start new thread): the truth's oom is the "
    "address-space cap the thread's stack ran into; the run said fail too",
    ("rx_ddp_rank1_cpu_limit", "where"): "no place (rank 1 died by SIGXCPU with no traceback); the run gave none "
    "either",
}
SET = HeldOut("heldout50", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=10
)
