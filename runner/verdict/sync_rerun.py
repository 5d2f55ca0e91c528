"""A `cuda_error` cell once more, with synchronous kernel launches: where the failing kernel was launched.

CUDA reports a kernel's failure at the host's next synchronizing call, so the
line that raised is wherever the host next waited (often
`_engine_run_backward`). Under CUDA_LAUNCH_BLOCKING=1 every launch waits, and
the traceback's innermost user frame is the line that launched the kernel: `where` names the op, a
library's frame on the way and that line (exception_place.launch_place).
cuDNN errors rerun with cuDNN's API log, NCCL errors with NCCL's debug log.
The rerun's logs go to `<cell>/sync/`, beside the cell's own.
"""

from __future__ import annotations

import dataclasses
import glob
import json
import os
import subprocess
import time

from crashmatrix.outcome import Outcome
from crashmatrix.process import supervise
from crashmatrix.rundir import cell_files
from crashmatrix.verdict import gpu_logs
from crashmatrix.verdict.classify import Verdict, classify, signed_by_place
from crashmatrix.verdict.exception_place import failing_output, launch_place

SYNC_DIR = "sync"
MARK = "synchronous rerun"
PASSED = "passed under synchronous launches: depends on timing"
# The printed hint of a build without device-side assertions compiled in (c10/cuda/CUDAException.cpp).
_NO_DSA_HINT = "Compile with `TORCH_USE_CUDA_DSA`"
# Not an asynchronous kernel failure: a rerun would only repeat it.
_NOT_ASYNC = {"cuda_after_fork"}
# Library statuses that an earlier kernel's fault on the context causes too: the first library call after it
# hears of it (on an H200 a device-side assert came out as cuDNN's CUDNN_STATUS_INTERNAL_ERROR at the next
# convolution; on an H100 as cuBLAS's at the next matmul).
_HEARD_LATER = ("cudnn_error", "cublas_error")


def wanted(verdict: Verdict) -> bool:
    return verdict.outcome == Outcome.CUDA_ERROR and verdict.signature not in _NOT_ASYNC


def rerun_env(env: dict, verdict: Verdict, stderr: str, sync_dir: str) -> dict:
    """The cell's environment with synchronous launches and the logs that fit its error."""
    env = dict(env, CUDA_LAUNCH_BLOCKING="1")
    if _NO_DSA_HINT not in stderr:
        # Built with device-side assertions: the runtime switch (torch reads PYTORCH_USE_CUDA_DSA).
        env.update(TORCH_USE_CUDA_DSA="1", PYTORCH_USE_CUDA_DSA="1")
    if verdict.signature.startswith("cudnn"):
        # cuDNN 9 reads CUDNN_LOGLEVEL_DBG, cuDNN 8 CUDNN_LOGINFO_DBG/CUDNN_LOGERR_DBG; the controller does not
        # know which cuDNN the cell loads (it never imports torch), and each ignores the other's variables.
        env.update(CUDNN_LOGLEVEL_DBG="3", CUDNN_LOGINFO_DBG="1", CUDNN_LOGERR_DBG="1")
        env["CUDNN_LOGDEST_DBG"] = os.path.join(sync_dir, "cudnn.log")
    if verdict.signature.startswith("nccl"):
        env.update(NCCL_DEBUG="INFO", NCCL_DEBUG_FILE=os.path.join(sync_dir, "nccl.%h.%p.log"))
    return env


def _wait(running: supervise.Running, timeout: float | None, stopped) -> int | None:
    """The exit status; None when it ran past timeout or a stop came (Ctrl-C): its tree is ended then."""
    deadline = None if timeout is None else time.monotonic() + timeout
    rc = None
    try:
        while rc is None and not stopped() and (deadline is None or time.monotonic() < deadline):
            try:
                # Short waits: a Ctrl-C only sets the engine's flag, and the rerun must end with the run.
                rc = running.popen.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                pass
        return rc
    finally:
        supervise.kill_tree(running.launch.token, 1.0)
        supervise.forget(running.launch.token)
        if running.popen.poll() is None:
            running.popen.kill()
            running.popen.wait()
        running.close_pidfd()


def _read(path: str, limit: int = 4 * 1024 * 1024) -> str:
    try:
        with open(path, "rb") as f:
            return f.read(limit).decode("utf-8", errors="replace")
    except OSError:
        return ""


def findings(rc: int | None, sync_dir: str, verdict: Verdict) -> str:
    """`where` from the rerun's exit status and logs."""
    if rc is None:
        return f"{MARK} timed out"
    if rc == 0:
        return PASSED
    # a distributed job's: the failing rank's own output (its `[rank0]:` lines), not the launcher's report after it
    parts = [launch_place(failing_output(_read(os.path.join(sync_dir, "stderr.log"))))]
    if verdict.signature.startswith("cudnn"):
        parts.append(gpu_logs.cudnn_failure(_read(os.path.join(sync_dir, "cudnn.log"))))
    if verdict.signature.startswith("nccl"):
        parts.append(gpu_logs.nccl_warning([_read(p) for p in sorted(glob.glob(os.path.join(sync_dir, "nccl.*")))]))
    found = "; ".join(p for p in parts if p)
    return f"{found}, {MARK}" if found else f"{MARK} failed too, no user line in its traceback"


def _own_spec(argv: list, sync_dir: str) -> list:
    """A probe's cell.json again, its report going to sync/: the cell's own report.json stays as it ended."""
    out = list(argv)
    for i, arg in enumerate(out):
        if isinstance(arg, str) and os.path.basename(arg) == "cell.json" and os.path.isfile(arg):
            with open(arg, encoding="utf-8") as f:
                spec = json.load(f)
            spec["report"] = os.path.join(sync_dir, "report.json")
            out[i] = os.path.join(sync_dir, "cell.json")
            with open(out[i], "w", encoding="utf-8") as f:
                json.dump(spec, f)
    return out


def rerun(
    launch: supervise.Launch,
    verdict: Verdict,
    stderr: str,
    cell_dir: str,
    timeout: float | None,
    stopped=lambda: False,
) -> str:
    """Run the cell again synchronously (blocking); `where` as the rerun found it ("" when stopped)."""
    sync_dir = os.path.join(cell_dir, SYNC_DIR)
    os.makedirs(sync_dir, exist_ok=True)
    token = launch.token + "-sync"
    argv, env = cell_files.moved(launch.argv, launch.env, cell_dir, sync_dir)
    env = dict(rerun_env(env, verdict, stderr, sync_dir), **{supervise.TOKEN_VAR: token})
    env["CRASHMATRIX_REPORT"] = os.path.join(sync_dir, "report.json")
    again = dataclasses.replace(
        launch,
        argv=_own_spec(argv, sync_dir),
        env=env,
        token=token,
        stdout_path=os.path.join(sync_dir, "stdout.log"),
        stderr_path=os.path.join(sync_dir, "stderr.log"),
    )
    try:
        try:
            running = supervise.start(again, timeout)
        except (OSError, ValueError) as e:
            return f"{MARK} could not start: {e}"
        rc = _wait(running, timeout, stopped)
    finally:
        cell_files.release(env)
    return "" if stopped() else findings(rc, sync_dir, verdict)


def signed(verdict: Verdict, where: str, sync_dir: str = "") -> Verdict:
    """A CUDA error that names no kernel (an illegal memory access), signed by the launching line its rerun
    found (classify.signed_by_place); any other, or a `where` the rerun did not give: as it is. sync_dir: the
    rerun's logs, whose own error replaces a library's status that only heard of it (_raised_first)."""
    if not where.endswith(f", {MARK}"):
        return verdict
    verdict = _by_library_call(_raised_first(verdict, sync_dir), where)
    return signed_by_place(verdict, where.removesuffix(f", {MARK}"), launched=True)


def _by_library_call(verdict: Verdict, where: str) -> Verdict:
    """A cuDNN status signed by the cuDNN call its rerun's log found failing (`cudnn_error
    CUDNN_STATUS_INTERNAL_ERROR in cudnnCreate`): a handle that could not be made (on an H200, a GPU whose
    memory another process held) is another failure than a convolution that failed as it ran."""
    call = gpu_logs.cudnn_call(where) if verdict.signature.startswith("cudnn_error") else ""
    return dataclasses.replace(verdict, signature=f"{verdict.signature} in {call}") if call else verdict


def _raised_first(verdict: Verdict, sync_dir: str) -> Verdict:
    """The rerun's CUDA error where the first run's was a cuDNN or cuBLAS status and the rerun's is another
    error: under synchronous launches a kernel that faulted raises at its own launch, before that library
    ran, and its failure is the one to sign (a faulting kernel prints no assertion to sign it by)."""
    if not sync_dir or verdict.signature.split(" ")[0] not in _HEARD_LATER:
        return verdict
    again = classify(1, stderr=_read(os.path.join(sync_dir, "stderr.log")))
    if again.outcome != Outcome.CUDA_ERROR or again.signature.split(" ")[0] in _HEARD_LATER:
        return verdict
    return dataclasses.replace(verdict, error=again.error, signature=again.signature)


def placed(matrix, verdict: Verdict, launch: supervise.Launch, stderr: str, cell_dir: str, where: str, stopped) -> str:
    """`where` for a finished cell: for a cuda_error, when the matrix asks for it, the rerun's finding. The
    first run's place is where the host next waited, not the failure: it is kept only where the rerun found
    no place of its own (it failed otherwise, timed out, could not start, or was stopped)."""
    if not (matrix.sync_rerun and wanted(verdict)):
        return where
    again = rerun(launch, verdict, stderr, cell_dir, matrix.timeout, stopped)
    if again == PASSED or again.endswith(f", {MARK}"):
        return again
    return "; ".join(w for w in (again, where) if w)
