"""The fourteenth held-out set (truth_heldout14.yaml, HELDOUT14.md): GPU failure modes written as users report
them, without reading crashmatrix's rules, each with its truth from running it alone on a lent H200. Its runs were
recorded once on that GPU, before any rule changed (recorded/heldout14/); here every recorded cell's stderr.log is
diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no torch, no GPU), and
held to the truth's outcome, `signature_has` and `where`, as test_heldout12.py does for the twelfth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT14.md lists the run's)
UNTRUE = {
    ("y_fork_cuda_dataset", "signature_has"): "cuda_after_fork (the run's too): names the class, not the message "
    "the truth asks for (`Cannot re-initialize CUDA in forked subprocess`)",
    ("y_ce_label_shift", "where"): "the asynchronous lead, torch/autograd/__init__.py:231 in _make_grads; "
    "zoo/modes/y_ce_label_shift.py:13 in train_step (diagnose reads no synchronous rerun; the run's rerun placed it "
    "at :11, right)",
    ("y_cupy_float4_offset", "where"): "zoo/modes/y_cupy_float4_offset.py:38 in main, the asynchronous lead; the run "
    "said its synchronous rerun had no user line, though the rerun's first traceback has :29 in scale (cupy's "
    "`Exception ignored` tracebacks at exit come after it)",
    ("y_ctypes_freed_host_buffer", "signature_has"): "killed_by_signal in zoo/modes/y_ctypes_freed_host_buffer.py:"
    "upload (the run's too): the signal is only in the row's signal column, not in the signature",
}
SET = HeldOut("heldout14", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=14
)
