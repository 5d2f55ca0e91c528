"""The fault probe's real CUDA faults: on a CUDA box each fails its own way; on this CPU box each is a skip
that says why (a GPU cannot be faulted here: the GPU branch ran on a lent H100, see results/reference/)."""

import os

import pytest
from conftest import ROOT, crashmatrix, has_cuda, rows_of

pytestmark = pytest.mark.slow  # real CUDA faults (on a GPU; a skip elsewhere after a torch import)

EXPECTED_ON_GPU = {
    "cuda_assert": "cuda_error",
    "cuda_oom": "oom",
    "cuda_fork_worker": "fail",  # the program's own error: CUDA touched in a forked worker (torch refuses it)
    "cuda_index_forward": "cuda_error",
    "cuda_loss_assert": "cuda_error",
    "nccl_duplicate_gpu": "cuda_error",
}
# On a GPU, the synchronous rerun places each asynchronous error at its launching line in probes/fault.py.
# The op, then the probe's line (the rerun's place alone: the first run's is where the host next waited).
WHERE_ON_GPU = {
    "cuda_index_forward": "index_select; probes/fault.py:",
    "cuda_loss_assert": "cross_entropy; probes/fault.py:",
    "cuda_assert": "index assignment; probes/fault.py:",
    "nccl_duplicate_gpu": "all_reduce; probes/fault.py:",
}
# A device-side assert is signed by the kernel's assertion (file and kernel; the condition after them).
SIGNATURE_ON_GPU = {
    "cuda_assert": "IndexKernel.cu: ",
    "cuda_loss_assert": "Loss.cu: nll_loss_forward_reduce_cuda_kernel_2d: ",
    "cuda_index_forward": "Indexing.cu: indexSelect",
    "cuda_oom": "cuda_oom",
    "cuda_fork_worker": "cuda_after_fork",
    "nccl_duplicate_gpu": "nccl_error",
}


def test_cuda_faults_are_real_on_gpu_and_skips_with_a_reason_elsewhere(tmp_path):
    out = tmp_path / "run"
    # Without a GPU one mode: every mode's skip is the probe's one check for CUDA, and each cell imports torch.
    modes = list(EXPECTED_ON_GPU) if has_cuda() else ["cuda_assert"]
    r = crashmatrix(
        "run",
        os.path.join(ROOT, "matrix", "gpu.yaml"),
        f"axes.mode=[{','.join(modes)}]",
        "--jobs",
        "2",
        "--out",
        out,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    rows = {row["mode"]: row for row in rows_of(out)}
    assert set(rows) == set(modes)
    for mode, row in rows.items():
        if has_cuda():
            assert row["outcome"] == EXPECTED_ON_GPU[mode], row
            assert row["signature"].startswith(SIGNATURE_ON_GPU[mode]), row
            if mode in WHERE_ON_GPU:
                assert row["where"].startswith(WHERE_ON_GPU[mode]), row
                assert ", synchronous rerun" in row["where"], row
        else:
            assert row["outcome"] == "skip", row
            assert f"mode={mode} needs CUDA" in row["error"], row
