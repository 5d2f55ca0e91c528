"""A cuda_error cell's synchronous rerun, and the cuDNN/NCCL logs it reads, without a GPU.

The GPU is mocked, and only the GPU: the cells are real programs that print the exact lines PyTorch
prints for an asynchronous CUDA error and die like it (exit 1 from the uncaught RuntimeError). They
read CUDA_LAUNCH_BLOCKING as the CUDA runtime would: unset, the error surfaces at backward's sync
(`_engine_run_backward`, in a stand-in torch/ package); set, at the user's line that launched the kernel.
"""

import glob
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import ROOT, crashmatrix, processes_with, rows_of

from crashmatrix.verdict import gpu_logs
from crashmatrix.verdict.exception_place import launch_place

# c10/cuda/CUDAException.cpp's text and ATen's device-assert line, as PyTorch 2.x prints them.
CUDA_ERROR = (
    "CUDA error: device-side assert triggered\n"
    "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below "
    "might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
    "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"
)
KERNEL_ASSERT = (
    "/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1422: indexSelectLargeIndex: block: [0,0,0], "
    "thread: [0,0,0] Assertion `srcIndex < srcSelectDimSize` failed."
)

# The same error of a kernel that faulted (ILLEGAL=1): CUDA's words name no kernel and no assert is printed.
ILLEGAL_ACCESS = CUDA_ERROR.replace("device-side assert triggered", "an illegal memory access was encountered")

FUNCTIONAL = f"""
import os, sys

def embedding(idx, rows):
    if os.environ.get("CUDA_LAUNCH_BLOCKING") == "1" and idx >= rows:
        if os.environ.get("ILLEGAL"):
            raise RuntimeError({ILLEGAL_ACCESS!r})
        print({KERNEL_ASSERT!r}, file=sys.stderr)
        raise RuntimeError({CUDA_ERROR!r})
    return idx
"""
GRAPH = f"""
import os

# on a line of its own: the traceback shows the raising line, whose words must not be the other error's
MESSAGE = {ILLEGAL_ACCESS!r} if os.environ.get("ILLEGAL") else {CUDA_ERROR!r}
if os.environ.get("HEARD_BY_CUDNN"):  # the next library call, not CUDA, heard of the kernel's fault
    MESSAGE = "cuDNN error: CUDNN_STATUS_INTERNAL_ERROR"

def _engine_run_backward(out, rows):
    if out >= rows:  # the kernel's failure, seen at the next sync
        raise RuntimeError(MESSAGE)
"""
TRAIN = """
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "stand_in"))
from torch.nn import functional as F
from torch.autograd import graph

ROWS = 10
IDX = int(os.environ.get("IDX", "99"))
if os.environ.get("FLAKY") and os.environ.get("CUDA_LAUNCH_BLOCKING") == "1":
    IDX = 0  # a failure that depends on timing: gone under synchronous launches


def forward():
    return F.embedding(IDX, ROWS)


out = forward()
graph._engine_run_backward(out, ROWS)
"""


def _app(tmp_path, env: str = "") -> str:
    for rel, text in (
        ("stand_in/torch/__init__.py", ""),
        ("stand_in/torch/nn/__init__.py", ""),
        ("stand_in/torch/nn/functional.py", FUNCTIONAL),
        ("stand_in/torch/autograd/__init__.py", ""),
        ("stand_in/torch/autograd/graph.py", GRAPH),
        ("train.py", TRAIN),
    ):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    matrix = tmp_path / "m.yaml"
    matrix.write_text(
        f"name: m\ncommand: [python, {tmp_path / 'train.py'}]\npass_params: none\n"
        f"axes:\n  env.IDX: [99]\n{env}timeout: 60\n"
    )
    return str(matrix)


def _row(tmp_path, *args, env: str = "") -> dict:
    proc = crashmatrix("run", _app(tmp_path, env), "--out", tmp_path / "run", *args, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (row,) = rows_of(tmp_path / "run")
    return row


@pytest.mark.slow
def test_the_rerun_names_the_launching_line_not_the_backward_sync(tmp_path):
    row = _row(tmp_path)
    assert (row["outcome"], row["signature"]) == ("cuda_error", "cuda_device_assert")
    line = TRAIN.splitlines().index("    return F.embedding(IDX, ROWS)") + 1
    assert row["where"] == f"embedding; train.py:{line} in forward, synchronous rerun"
    cell = tmp_path / "run" / row["log_dir"]
    # The first run's traceback points at the sync; the rerun's logs sit beside it.
    assert "_engine_run_backward" in (cell / "stderr.log").read_text()
    assert KERNEL_ASSERT in (cell / "sync" / "stderr.log").read_text()


@pytest.mark.slow
def test_a_kernels_illegal_access_is_signed_by_the_line_its_rerun_launched_it_from(tmp_path):
    # as an H200 showed for a Triton kernel of the program's own (tests/zoo/truth_gpu.yaml, gpu_kernel_stride):
    # CUDA's words name no kernel, so without the launching line two faulting kernels were one failure
    row = _row(tmp_path, env="env:\n  ILLEGAL: '1'\n")
    assert row["outcome"] == "cuda_error"
    assert row["signature"] == "cuda_illegal_memory_access in train.py:forward"
    line = TRAIN.splitlines().index("    return F.embedding(IDX, ROWS)") + 1
    assert row["where"] == f"embedding; train.py:{line} in forward, synchronous rerun"


@pytest.mark.slow
def test_a_kernels_fault_heard_by_cudnn_is_the_kernels_failure_not_cudnns(tmp_path):
    # On an H200 a kernel's fault came out of the next convolution as `cuDNN error:
    # CUDNN_STATUS_INTERNAL_ERROR` (tests/zoo gpu_seg_void_label, signed there by the assertion CUDA printed).
    # A faulting kernel prints none: its synchronous rerun raises at the launch, and that error is the failure.
    row = _row(tmp_path, env="env:\n  ILLEGAL: '1'\n  HEARD_BY_CUDNN: '1'\n")
    assert row["outcome"] == "cuda_error"
    assert row["signature"] == "cuda_illegal_memory_access in train.py:forward"
    assert row["error"] == "RuntimeError: CUDA error: an illegal memory access was encountered"
    line = TRAIN.splitlines().index("    return F.embedding(IDX, ROWS)") + 1
    assert row["where"] == f"embedding; train.py:{line} in forward, synchronous rerun"
    cell = tmp_path / "run" / row["log_dir"]
    assert "CUDNN_STATUS_INTERNAL_ERROR" in (cell / "stderr.log").read_text()  # what the first run said


@pytest.mark.slow
def test_a_failure_gone_under_synchronous_launches_is_said_to_depend_on_timing(tmp_path):
    row = _row(tmp_path, env="env:\n  FLAKY: '1'\n")
    assert row["outcome"] == "cuda_error"
    assert row["where"] == "passed under synchronous launches: depends on timing"


@pytest.mark.slow
def test_no_sync_rerun_leaves_where_as_the_first_run_found_it(tmp_path):
    row = _row(tmp_path, "--no-sync-rerun")
    assert row["outcome"] == "cuda_error"
    assert "synchronous" not in row["where"]
    assert not os.path.exists(tmp_path / "run" / row["log_dir"] / "sync")


HANGS_WHEN_SYNCHRONOUS = f"""
import os, time
if os.environ.get("CUDA_LAUNCH_BLOCKING") == "1":
    print("rerun started", flush=True)
    time.sleep(3600)
raise RuntimeError({CUDA_ERROR!r})
"""


@pytest.mark.slow
def test_ctrl_c_during_the_rerun_ends_it_and_the_run(tmp_path):
    (tmp_path / "hang.py").write_text(HANGS_WHEN_SYNCHRONOUS)
    (tmp_path / "m.yaml").write_text("name: m\ncommand: [python, hang.py]\npass_params: none\ntimeout: 600\n")
    env = dict(os.environ, PYTHONPATH=ROOT)
    cmd = [sys.executable, "-m", "crashmatrix", "run", "m.yaml", "--out", "run"]
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    pattern = str(tmp_path / "run" / "cells" / "*" / "sync" / "stdout.log")
    while not any("rerun started" in open(p).read() for p in glob.glob(pattern)):
        assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()
        time.sleep(0.05)  # polling for the rerun's first line, not a synchronisation by sleep
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert time.monotonic() - t0 < 5.0
    assert processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}") == []


def test_the_launch_place_skips_torch_frames_and_takes_the_call_into_torch():
    stderr = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/proj/train.py", line 30, in <module>\n    loss = step(batch)\n'
        '  File "/home/u/proj/model.py", line 42, in step\n    return F.cross_entropy(logits, target)\n'
        '  File "/venv/lib/python3.12/site-packages/torch/nn/functional.py", line 3494, in cross_entropy\n'
        "    return torch._C._nn.cross_entropy_loss(\n"
        "RuntimeError: " + CUDA_ERROR
    )
    assert launch_place(stderr) == "cross_entropy; model.py:42 in step"


def test_without_a_torch_frame_the_op_is_the_call_on_the_users_line_else_the_kernel():
    def tb(file: str, code: str) -> str:
        return f'{KERNEL_ASSERT}\nTraceback (most recent call last):\n  File "{file}", line 9, in fwd\n    {code}\n'

    assert launch_place(tb("/p/m.py", "y = w.index_select(0, rows)  # f(x)")) == "index_select; m.py:9 in fwd"
    assert launch_place(tb("/p/m.py", "w[rows] = 1.0")) == "indexSelectLargeIndex; m.py:9 in fwd"
    # The fault probe stands for the user's code, also where it is installed under crashmatrix/.
    probe = "/venv/lib/python3.12/site-packages/crashmatrix/probes/fault.py"
    assert launch_place(tb(probe, "picked = weight.index_select(0, rows)")) == "index_select; probes/fault.py:9 in fwd"


# Not recorded on a GPU here (none was lent): written from cuDNN's documented API-log format
# (cuDNN 9 developer guide, "API Logging": `I! CuDNN (v90100 70) function ... called:`, `i!`/`e!` lines).
CUDNN9_LOG = """\
I! CuDNN (v90100 70) function cudnnBackendExecute() called:
i!     handle: type=cudnnHandle_t; streamId=0x5581a3c0 (defaultStream);
i!     plan: type=cudnnBackendDescriptor_t:
i!         type: type=cudnnBackendDescriptorType_t; val=CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR;
i!         engine_config: type=cudnnBackendDescriptor_t:
i!             engine: type=cudnnBackendDescriptor_t:
i!                 operation_graph: type=cudnnBackendDescriptor_t:
i!                     ops: type=CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR;
i!                 global_index: type=int64_t; val=3;
i! Time: 2026-11-24T10:40:01.123456 (0d+0h+0m+2s since start)
i! Process=4242; Thread=4242; GPU=0; Handle=0x5581a000; StreamId=0x5581a3c0.

E! CuDNN (v90100 70) function cudnnBackendExecute() called:
e!     Info: Traceback contains 1 message(s)
e!         Error: CUDNN_STATUS_EXECUTION_FAILED; Reason: kernel launch failure
e! Time: 2026-11-24T10:40:01.130000 (0d+0h+0m+2s since start)
e! Process=4242; Thread=4242; GPU=0; Handle=0x5581a000; StreamId=0x5581a3c0.
"""
# cuDNN 8's legacy API log (CUDNN_LOGINFO_DBG=1), same provenance.
CUDNN8_LOG = """\
I! CuDNN (v8902) function cudnnConvolutionBackwardData() called:
i!     handle: type=cudnnHandle_t; streamId=(nil) (defaultStream);
i!     algo: type=cudnnConvolutionBwdDataAlgo_t; val=CUDNN_CONVOLUTION_BWD_DATA_ALGO_1 (1);
i! Time: 2026-11-24T10:41:00.000000 (0d+0h+0m+1s since start)
i! Process=4243; Thread=4243; GPU=0; Handle=0x1; StreamId=(nil) (defaultStream).

E! CuDNN (v8902) function cudnnConvolutionBackwardData() called:
e!     Error: CUDNN_STATUS_EXECUTION_FAILED; Reason: cudaGetLastError() != cudaSuccess
e! Time: 2026-11-24T10:41:00.000100 (0d+0h+0m+1s since start)
"""
# Not recorded on a GPU here: NCCL's debug-log line format (`host:pid:tid [cudaDev] file:line NCCL WARN ...`).
NCCL_LOG = """\
node1:4301:4301 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>
node1:4301:4301 [0] NCCL INFO NCCL version 2.21.5+cuda12.4
node1:4301:4390 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.0.2<35177> failed : \
Software caused connection abort
node1:4301:4390 [0] NCCL INFO misc/socket.cc:565 -> 2
node1:4301:4390 [0] transport/net_socket.cc:339 NCCL WARN Net : Connection closed by remote peer
"""


# A program that fails like a cuDNN convolution or an NCCL collective and, like the libraries, writes
# their own log where the rerun's variables point (the log text above stands in for the library's).
LIBRARY_FAILURE = """
import os, socket, sys
env = {k: os.environ.get(k, "") for k in ("CUDA_LAUNCH_BLOCKING", "PYTORCH_USE_CUDA_DSA", "CUDNN_LOGLEVEL_DBG")}
print(env)
if os.environ.get("CUDNN_LOGDEST_DBG"):
    open(os.environ["CUDNN_LOGDEST_DBG"], "w").write(sys.argv[2])
if os.environ.get("NCCL_DEBUG") == "INFO":
    path = os.environ["NCCL_DEBUG_FILE"].replace("%h", socket.gethostname()).replace("%p", str(os.getpid()))
    open(path, "w").write(sys.argv[2])


def conv():
    raise RuntimeError(sys.argv[1])


conv()
"""


@pytest.mark.parametrize(
    "error, log, where",
    [
        (
            "cuDNN error: CUDNN_STATUS_EXECUTION_FAILED",
            CUDNN9_LOG,
            "cuDNN cudnnBackendExecute: convolution forward, engine 3: CUDNN_STATUS_EXECUTION_FAILED",
        ),
        (
            "NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error, NCCL version 2.21.5",
            NCCL_LOG,
            "NCCL WARN socketStartConnect: Connect to 10.0.0.2<35177> failed",
        ),
    ],
    ids=["cudnn", "nccl"],
)
@pytest.mark.slow
def test_cudnn_and_nccl_errors_rerun_with_their_libraries_logs(tmp_path, error, log, where):
    (tmp_path / "lib.py").write_text(LIBRARY_FAILURE)
    (tmp_path / "m.yaml").write_text(
        "name: m\npass_params: none\ntimeout: 60\naxes:\n  env.X: [x]\n"
        + "command: "
        + json.dumps(["python", "lib.py", error, log])
        + "\n"
    )
    proc = crashmatrix("run", tmp_path / "m.yaml", "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (row,) = rows_of(tmp_path / "run")
    assert row["outcome"] == "cuda_error"
    # The launching line (the program raised it itself: no op), then the library's own account of the failure.
    assert row["where"].startswith("lib.py:13 in conv; " + where), row["where"]
    assert row["where"].endswith(", synchronous rerun"), row["where"]
    sync = tmp_path / "run" / row["log_dir"] / "sync"
    # This build "has" DSA (its text lacks the compile hint), so the rerun switched it on.
    seen = (sync / "stdout.log").read_text()
    assert "'CUDA_LAUNCH_BLOCKING': '1', 'PYTORCH_USE_CUDA_DSA': '1'" in seen
    assert ("'CUDNN_LOGLEVEL_DBG': '3'" in seen) == error.startswith("cuDNN")


def test_the_cudnn9_log_names_the_operation_and_engine_that_failed():
    assert gpu_logs.cudnn_failure(CUDNN9_LOG) == (
        "cuDNN cudnnBackendExecute: convolution forward, engine 3: CUDNN_STATUS_EXECUTION_FAILED (kernel launch failure)"
    )


def test_the_cudnn8_log_names_the_call_and_algorithm():
    assert gpu_logs.cudnn_failure(CUDNN8_LOG) == (
        "cuDNN cudnnConvolutionBackwardData: CUDNN_CONVOLUTION_BWD_DATA_ALGO_1: CUDNN_STATUS_EXECUTION_FAILED "
        "(cudaGetLastError() != cudaSuccess)"
    )


def test_a_real_cudnn9_handle_failure_gives_its_reason_from_the_calls_warning_block():
    # cuDNN 9.19 on an H200, another process holding the GPU's memory (tests/zoo gpu_shared_gpu): the status is in
    # cudnnCreate's `I!` block, its reason in the same call's `W!` block after it.
    with open(os.path.join(ROOT, "tests", "data", "h200-cudnn", "shared_gpu.cudnn.log")) as f:
        log = f.read()
    failure = gpu_logs.cudnn_failure(log)
    assert failure == (
        "cuDNN cudnnCreate: CUDNN_STATUS_INTERNAL_ERROR "
        "(cudaStreamCreateWithFlags(&ctx->streamPool[0][i], 0x01) != cudaSuccess)"
    )
    where = f"conv2d; train.py:32 in forward; {failure}, synchronous rerun"
    assert gpu_logs.cudnn_setup_failure(where) == failure.removeprefix("cuDNN ")
    assert gpu_logs.cudnn_setup_failure("conv2d; train.py:32 in forward, synchronous rerun") == ""


def test_a_cudnn_status_is_signed_by_the_call_that_failed_and_a_handle_says_what_frees_it():
    from crashmatrix.outcome import Outcome
    from crashmatrix.verdict import sync_rerun
    from crashmatrix.verdict.classify import Verdict
    from crashmatrix.verdict.remedies import remedy

    def signed(status: str, failure: str) -> str:
        first = Verdict(Outcome.CUDA_ERROR, "", f"RuntimeError: cuDNN error: {status}", f"cudnn_error {status}")
        return sync_rerun.signed(first, f"conv2d; train.py:32 in forward; {failure}, synchronous rerun").signature

    # the H200's shared GPU (tests/zoo gpu_shared_gpu), and a convolution that failed as it ran
    handle = signed("CUDNN_STATUS_INTERNAL_ERROR", "cuDNN cudnnCreate: CUDNN_STATUS_INTERNAL_ERROR (x)")
    ran = signed("CUDNN_STATUS_EXECUTION_FAILED", "cuDNN cudnnBackendExecute: convolution forward, engine 3: x")
    assert handle == "cudnn_error CUDNN_STATUS_INTERNAL_ERROR in cudnnCreate"
    assert ran == "cudnn_error CUDNN_STATUS_EXECUTION_FAILED in cudnnBackendExecute"
    assert "nvidia-smi --query-compute-apps" in remedy(handle) and remedy(ran) == ""


def test_nccls_first_warning_is_the_telling_line():
    assert gpu_logs.nccl_warning(["", NCCL_LOG]) == (
        "NCCL WARN socketStartConnect: Connect to 10.0.0.2<35177> failed : Software caused connection abort "
        "(misc/socket.cc:484, GPU 0)"
    )
    assert gpu_logs.cudnn_failure("no log") == "" and gpu_logs.nccl_warning([]) == ""


def test_a_bad_sync_rerun_value_exits_2_naming_file_and_key(tmp_path):
    (tmp_path / "m.yaml").write_text("name: m\ncommand: [python, x.py]\nsync_rerun: nope\n")
    proc = crashmatrix("run", "m.yaml", "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "crashmatrix: m.yaml: sync_rerun: expected true or false, got 'nope'"
