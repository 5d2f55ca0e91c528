"""What an H200 printed for every fault mode, classified here without a GPU: one failure, one signature.

tests/data/h200-faults/ is a copy of ../shared/gpu-runs/h200-faults (crashmatrix run matrix/gpu.yaml on an
NVIDIA H200, torch 2.11.0+cu130, main at 34f52f4): its results.csv as that run wrote it, and each cell's
stderr.log and synchronous rerun's (sync/) as CUDA, cuBLAS, NCCL and PyTorch printed them. Only the GPU is
missing; the text is real. The recorded rows show what was wrong: two different device-side asserts had
one signature, and an index_select's assert was named after the cuBLAS error it caused a line later.
"""

import csv
import os
import re
import signal

import pytest
from conftest import ROOT

from crashmatrix.verdict.classify import classify, signed_by_place
from crashmatrix.verdict.exception_place import launch_place

RUN = os.path.join(ROOT, "tests", "data", "h200-faults")

# mode -> (outcome, signal, signature) now; the recorded row's `where` is kept where it was right.
EXPECTED = {
    "cuda_assert": (
        "cuda_error",
        "",
        'IndexKernel.cu: operator(): -sizes[i] <= index && index < sizes[i] && "index out of bounds"',
    ),
    "cuda_loss_assert": ("cuda_error", "", "Loss.cu: nll_loss_forward_reduce_cuda_kernel_2d: t >= 0 && t < n_classes"),
    "cuda_index_forward": ("cuda_error", "", "Indexing.cu: indexSelectSmallIndex: srcIndex < srcSelectDimSize"),
    "cuda_oom": ("oom", "", "cuda_oom"),
    "cuda_fork_worker": ("fail", "", "cuda_after_fork"),  # an ordinary error since (the recorded row: cuda_error)
    "nccl_duplicate_gpu": ("cuda_error", "", "nccl_error"),
    "segv": ("crash", "SIGSEGV", "killed_by_signal in probes/fault.py:_real_segv"),
    "worker_segv": ("worker_crash", "SIGSEGV", "worker_signal in probes/fault.py:_real_segv"),
}
# A cuda_error's place, from its synchronous rerun's stderr (exception_place.launch_place): the op and line
# the table in ../shared/gpu-runs/README.md gives, and the program's function.
LAUNCHED_AT = {
    "cuda_assert": "index assignment; probes/fault.py:93 in _cuda_fault",
    "cuda_loss_assert": "cross_entropy; probes/fault.py:126 in _bad_target_in_loss",
    "cuda_index_forward": "index_select; probes/fault.py:116 in _index_in_forward_seen_at_backward",
}


def _rows() -> dict[str, dict]:
    with open(os.path.join(RUN, "results.csv"), newline="") as f:
        return {row["mode"]: row for row in csv.DictReader(f)}


def _log(row: dict, *parts: str) -> str:
    with open(os.path.join(RUN, row["log_dir"], *parts)) as f:
        return f.read()


def _verdict(row: dict):
    """classify's verdict now on what the cell printed, as the engine signs it with the recorded `where`."""
    returncode = int(row["exit_code"]) if row["exit_code"] else -signal.Signals[row["signal"]].value
    return signed_by_place(classify(returncode, stderr=_log(row, "stderr.log")), row["where"])


@pytest.mark.parametrize("mode", sorted(EXPECTED))
def test_every_recorded_mode_classifies_as_the_table_now_says(mode):
    v = _verdict(_rows()[mode])
    assert (v.outcome.value, v.signal, v.signature) == EXPECTED[mode], v


def test_the_two_device_side_asserts_are_two_failures_told_by_their_assertions():
    rows = _rows()
    index, loss = _verdict(rows["cuda_assert"]), _verdict(rows["cuda_loss_assert"])
    assert index.signature != loss.signature
    # `error` is the kernel's assertion, not the later `device-side assert triggered`
    assert index.error.startswith("/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:111: operator(): block:")
    assert index.error.endswith('Assertion `-sizes[i] <= index && index < sizes[i] && "index out of bounds"` failed.')
    assert "Loss.cu:245: nll_loss_forward_reduce_cuda_kernel_2d" in loss.error
    assert rows["cuda_assert"]["signature"] == rows["cuda_loss_assert"]["signature"]  # what the H200 run said


def test_an_index_selects_assert_is_not_named_after_the_cublas_error_it_caused():
    row = _rows()["cuda_index_forward"]
    stderr = _log(row, "stderr.log")
    assert row["signature"] == "cublas_error" and "CUBLAS_STATUS_INTERNAL_ERROR" in stderr  # the recorded lead
    assert stderr.count("Assertion `srcIndex < srcSelectDimSize` failed.") == 64  # a line per thread
    v = _verdict(row)
    assert v.signature != "cublas_error" and "cublas" not in v.error.lower()
    assert "indexSelectSmallIndex" in v.error and "Assertion `srcIndex < srcSelectDimSize` failed." in v.error


@pytest.mark.parametrize("mode", sorted(LAUNCHED_AT))
def test_a_cuda_errors_synchronous_rerun_places_it_at_the_launching_line(mode):
    row = _rows()[mode]
    assert launch_place(_log(row, "sync", "stderr.log")) == LAUNCHED_AT[mode]
    # the same op and line as the H200 run's own crashmatrix placed it, in that version's form
    op, line = re.match(r"(.+); probes/(fault\.py:\d+) in ", LAUNCHED_AT[mode]).groups()
    assert row["where"] == f"{op} ({line}), synchronous rerun"
