"""The ninety-seventh held-out set (truth_heldout97.yaml, HELDOUT97.md): torch's own native kernels on the CPU and
the program's use of them (index_select in a fork worker, torch.as_strided's storage check in a spawn worker, a
zero-copy tensor over C memory the program freed, conv1d's kernel-size check and torch.native_batch_norm's
unchecked running stats on one of two gloo ranks under torchrun, autograd's leaf-view check, a custom Function's
gradient count in a thread, a gradient hook raising inside backward, anomaly mode naming the forward op, the GNU
OpenMP fork problem in a DataLoader worker, a spawned child's torch.cat leaving its parent waiting), written as
users report them, without reading crashmatrix's rules, each with its truth from running it alone. Its runs were
recorded once, before any rule changed (recorded/heldout97/); here every recorded cell's stderr.log is diagnosed
again with today's rules, in this process (`crashmatrix diagnose`'s own function, no torch), and held to the
truth's outcome, `signature_has` and `where`, as test_heldout95.py does for the ninety-fifth set.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's).
"""

from __future__ import annotations

from heldout_recorded import HeldOut

RUNS = {
    "single": ["single"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "torchrun": ["torchrun"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT97.md lists the run's)
UNTRUE: dict[tuple[str, str], str] = {}
SET = HeldOut("heldout97", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=10
)
