"""The ninety-second held-out set (truth_heldout92.yaml, HELDOUT92.md): a training program with its own C++ operators,
compiled at run time by torch.utils.cpp_extension.load_inline (a TORCH_CHECK it wrote, an out-of-bounds write and a
null read in its kernels, an ISA path the CPU lacks, a build its source breaks, an undefined symbol, an operator
registered with TORCH_LIBRARY in one process and called through torch.ops in another, a destructor's c10::Error
ending in terminate, the GIL held across at::parallel_for), in the main, DataLoader workers (fork and spawn), a
thread and 2 gloo ranks, written as users report them, five in a new project (xt_proj/: a pyproject.toml marker, a
package `xtops/`, an entry `train.py --case NAME`), without reading crashmatrix's rules, each with its truth from
running it alone. Its runs were recorded once, before any rule changed (recorded/heldout92/); here every recorded
cell's stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no
torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout19.py does for the nineteenth set.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's).
"""

from __future__ import annotations

from heldout_recorded import HeldOut

RUNS = {
    "app": ["app"],
    "single": ["single"],
    "torchrun": ["torchrun"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "app_hangs": ["app-hangs-inject", "app-hangs-plain"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT92.md lists the run's)
UNTRUE: dict[tuple[str, str], str] = {}
SET = HeldOut("heldout92", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=12
)
