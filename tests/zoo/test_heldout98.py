"""The ninety-eighth held-out set (truth_heldout98.yaml, HELDOUT98.md): a training process's own lifecycle as
cluster users meet it (a SIGUSR1 preemption handler that raises KeyError for a missing SLURM_JOB_ID, the program's
own preprocessing CLI failing in csv's field limit and killed by SIGPIPE after its parent closed the pipe, a daemon
writer thread killed at a child's exit leaving a truncated .npy, atexit hooks and a weakref finalizer failing at
shutdown of a run that exits 0, the program's heartbeat watchdog calling os.abort, a rank's preemption handler
calling sys.exit(0) under torchrun, a per-item SIGALRM timeout whose handler spawn workers never install, fork
DataLoader workers copying a lock held by a thread), written as users report them, four in a new project (lc_proj/:
a pyproject.toml marker, a package `lcrun/`, an entry `train.py --case NAME`), without reading crashmatrix's rules,
each with its truth from running it alone. Its runs were recorded once, before any rule changed
(recorded/heldout98/); here every recorded cell's stderr.log is diagnosed again with today's rules, in this process
(`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome, `signature_has` and `where`, as
test_heldout95.py does for the ninety-fifth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT98.md lists the run's)
UNTRUE = {
    ("lc_ddp_alarm_spawn_worker", "where"): "the main process heard of it at zoo/modes/lc_ddp_alarm_spawn_worker.py:52 "
    "in run: rank 1's loop, not its worker's :34 in decode (the run, with inject, said :34 in decode)",
}
SET = HeldOut("heldout98", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=8
)
