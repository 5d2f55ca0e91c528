"""The thirty-eighth held-out set (truth_heldout38.yaml, HELDOUT38.md): mixed precision and numerics on the CPU,
written as users report them, six in a new project (mx_proj/: a pyproject.toml marker, a package amp_train/ and an
entry train.py taking `case=NAME` and other key=value arguments), without reading crashmatrix's rules, each with its
truth from running it alone. Its runs were recorded once, before any rule changed (recorded/heldout38/); here every
recorded cell's stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own
function, no torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout19.py does for the
nineteenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT38.md lists the run's)
UNTRUE = {}
SET = HeldOut("heldout38", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=11
)


def test_a_worker_that_died_by_a_trap_the_program_unmasked_is_no_bug_report_for_torch():
    # HELDOUT38.md counted the addressee untrue: the worker died by SIGFPE in libtorch_cpu.so's division, and
    # ISSUE.md went to PyTorch's tracker; the program's worker_init_fn had unmasked FE_INVALID and FE_DIVBYZERO
    # (feenableexcept), and torch's 0/0 did what IEEE says. Each recorded repeat's log now names that line, and
    # the report is the program's
    cells = SET.cells("mx_worker_fpe_trap")
    assert cells
    for cell in cells:
        whose = SET.whose(cell, {"torch": "2.13.0+cpu"})
        assert whose is not None and whose.is_torch, cell
        assert (whose.owns_the_bug, whose.trapped) == (False, "zoo/modes/mx_worker_fpe_trap.py:16"), cell
