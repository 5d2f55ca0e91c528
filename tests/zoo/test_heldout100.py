"""The hundredth held-out set (truth_heldout100.yaml, HELDOUT100.md): the machine's limits as WSL2 and container
users meet them, each set by the program for its own processes (a SharedMemory cache written by fork DataLoader
workers past a private 16 MiB /dev/shm, np.memmap past a 32 MiB scratch tmpfs, PIL's lazy opens past an open-file
limit, 16 OpenMP threads under an address-space cap and libgomp's fatal exit, a caught SIGXCPU until SIGKILL at
the hard CPU limit, one rank's shard files before its spawn DataLoader under torchrun, rank 0's torch.save onto a
read-only volume, a producer's queue feeder that cannot move a tensor into an 8 MiB /dev/shm while the main waits
in get()), written as users report them, four in a new project (bq_proj/: a pyproject.toml marker, a package
`bqrun/`, an entry `train.py --case NAME`), without reading crashmatrix's rules, each with its truth from running
it alone. Its runs were recorded once, before any rule changed (recorded/heldout100/); here every recorded cell's
stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no
torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout98.py does for the
ninety-eighth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT100.md lists the run's)
UNTRUE = {
    ("omp_threads_as", "outcome"): "no failure found (pass): libgomp's `Thread creation failed` line alone, without "
    "the exit status 1 the run had (the run said fail, `libgomp: Thread creation failed: ...`)",
    ("omp_threads_as", "signature_has"): "no signature (no failure found in the log alone)",
    ("bq_cpu_budget_kill", "outcome"): "no failure found (pass): the stderr.log is empty, SIGKILL printing nothing "
    "(the run, with the signal, said crash SIGKILL)",
    ("bq_cpu_budget_kill", "signature_has"): "no signature (no failure found in the empty log)",
}
SET = HeldOut("heldout100", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=8
)
