"""The hundred-and-fourth held-out set (truth_heldout104.yaml, HELDOUT104.md): numerics, mixed precision and
compilation on the CPU (GradScaler refusing an fp16 model's gradients, torch.compile(fullgraph=True) refusing a
data-dependent branch, TorchScript refusing a forward with **kwargs, clip_grad_norm_(error_if_nonfinite=True) meeting
a log(0) with fork workers alive, an int32 flat index that wraps and index_select refuses, an int32 byte stride that
wraps under as_strided and kills a DataLoader worker by SIGSEGV, floating-point traps turning rank 1's 0/0 into
SIGFPE under torchrun, and the program's own loss scaler retrying a NaN step for ever), written as users report
them, four in a new project (yw_proj/: a pyproject.toml marker, a package `ywmix/`, an entry `train.py --case
NAME`), without reading crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once,
before any rule changed (recorded/heldout104/); here every recorded cell's stderr.log is diagnosed again with today's
rules, in this process (`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome,
`signature_has` and `where`, as test_heldout98.py does for the ninety-eighth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT104.md lists the run's)
UNTRUE: dict[tuple[str, str], str] = {}
SET = HeldOut("heldout104", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=8
)
