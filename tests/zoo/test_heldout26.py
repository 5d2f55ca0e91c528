"""The twenty-sixth held-out set (truth_heldout26.yaml, HELDOUT26.md): failures of the program's own native code
and custom autograd, written as users report them, eight in a new project (cx_proj/: a pyproject.toml marker,
C++ ops built with torch.utils.cpp_extension.load into TORCH_EXTENSIONS_DIR, custom autograd Functions, a
train.py that parses key=value itself), without reading crashmatrix's rules, each with its truth from running it
alone. Its runs were recorded once, before any rule changed (recorded/heldout26/); here every recorded cell's
stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no
torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout19.py does for the nineteenth.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's).
"""

from __future__ import annotations

from heldout_recorded import HeldOut

RUNS = {
    "app": ["app"],
    "single": ["single"],
    "single-late": ["single-late"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "torchrun": ["torchrun"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT26.md lists the run's)
UNTRUE = {
    ("cx_thread_ctypes_fpe", "signature_has"): "killed_by_signal in zoo/modes/cx_thread_ctypes_fpe.py:prefetch (the "
    "contract's signature; the truth listed only native words)",
}
SET = HeldOut("heldout26", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=14
)
