"""What an H100 printed, parsed here without a GPU.

The logs are a real run on a lent NVIDIA H100 (torch 2.11.0+cu130, cuDNN 9.19, NCCL 2.28.9, driver
580.159.04): `crashmatrix run matrix/gpu.yaml`, committed as results/reference/h100-2026-11-24-async/
with each cell's own stderr and its synchronous rerun's (cells/<id>/sync/). Nothing here is written by
hand: only the GPU is missing, so these tests read what it said.
"""

import csv
import gzip
import os
from types import SimpleNamespace

from conftest import ROOT

from crashmatrix.verdict import gpu_logs, sync_rerun
from crashmatrix.verdict.exception_place import launch_place

RUN = os.path.join(ROOT, "results", "reference", "h100-2026-11-24-async")


def _rows() -> dict[str, dict]:
    with open(os.path.join(RUN, "results.csv"), newline="") as f:
        return {row["mode"]: row for row in csv.DictReader(f)}


def _log(mode: str, *parts: str) -> str:
    with open(os.path.join(RUN, _rows()[mode]["log_dir"], *parts)) as f:
        return f.read()


def test_the_first_run_blames_cublas_at_the_next_line_and_the_rerun_names_the_index_select():
    # The reports' wrong lead, reproduced: index_select's device-side assert poisons the context and the
    # next library call on the host (cuBLAS's handle, for the matmul one line later) raises instead.
    first = _log("cuda_index_forward", "stderr.log")
    assert "CUBLAS_STATUS_INTERNAL_ERROR when calling `cublasCreate(handle)`" in first
    assert launch_place(first) == "randn; probes/fault.py:117 in _index_in_forward_seen_at_backward"
    sync = _log("cuda_index_forward", "sync", "stderr.log")
    assert launch_place(sync) == "index_select; probes/fault.py:116 in _index_in_forward_seen_at_backward"


def test_the_reference_rows_where_names_the_launching_line():
    rows = _rows()
    assert rows["cuda_index_forward"]["signature"] == "cublas_error"
    assert rows["cuda_index_forward"]["where"] == "index_select (fault.py:116), synchronous rerun"
    assert rows["cuda_loss_assert"]["where"] == "cross_entropy (fault.py:126), synchronous rerun"
    assert rows["cuda_assert"]["where"] == "index assignment (fault.py:93), synchronous rerun"
    assert rows["nccl_duplicate_gpu"]["where"] == (
        "all_reduce (fault.py:155); NCCL WARN Duplicate GPU detected : rank 0 and rank 1 both on CUDA device 60 "
        "(init.cc:904, GPU 0), synchronous rerun"
    )


def test_an_assignment_into_an_index_is_the_op_not_the_call_inside_the_index():
    assert (
        launch_place(_log("cuda_assert", "sync", "stderr.log")) == "index assignment; probes/fault.py:93 in _cuda_fault"
    )


def test_ncc_rerun_names_the_collective_past_c10ds_wrapper_and_nccls_own_warning():
    sync_dir = os.path.join(RUN, _rows()["nccl_duplicate_gpu"]["log_dir"], "sync")
    where = sync_rerun.findings(1, sync_dir, SimpleNamespace(signature="nccl_error"))
    assert where.startswith(
        "all_reduce; probes/fault.py:155 in _nccl_rank_on_gpu0; NCCL WARN Duplicate GPU detected : rank"
    )
    assert where.endswith("(init.cc:904, GPU 0), synchronous rerun")


def test_a_real_cudnn9_log_of_a_passing_convolution_reads_as_no_failure():
    # cuDNN 9.19's API log (CUDNN_LOGLEVEL_DBG=3) of a 50000x50000 half convolution that passed: its blocks
    # parse and no status but SUCCESS is reported. No cuDNN failure could be provoked honestly on the H100.
    with gzip.open(os.path.join(RUN, "cudnn", "conv2d_passing.cudnn.log.gz"), "rt") as f:
        log = f.read()
    assert "I! CuDNN (v91900" in log and "cudnnBackendExecute" in log
    assert gpu_logs.cudnn_failure(log) == ""
