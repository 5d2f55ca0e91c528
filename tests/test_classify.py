"""The pure classifier, table-driven, with the messages PyTorch, CUDA and CPython really print."""

import pytest

from runner.classify import classify

WORKER_SEGV = """\
ERROR: Unexpected segmentation fault encountered in worker.
Traceback (most recent call last):
  File ".../torch/utils/data/dataloader.py", line 1251, in _try_get_data
RuntimeError: DataLoader worker (pid 4011) is killed by signal: Segmentation fault.
"""
WORKER_BUS_ONLY = """\
ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).
Traceback (most recent call last):
  File ".../torch/multiprocessing/reductions.py", line 541, in rebuild_storage_fd
ConnectionResetError: [Errno 104] Connection reset by peer
"""
LOST_WORKER_NO_SIGNAL = """\
Traceback (most recent call last):
  File ".../torch/multiprocessing/reductions.py", line 541, in rebuild_storage_fd
    fd = df.detach()
ConnectionResetError: [Errno 104] Connection reset by peer
"""
DDP_RANK = """\
torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGSEGV
"""

CASES = [
    # (returncode, timed_out, stderr, report) -> (outcome, signal, error fragment)
    (0, False, "", {"status": "ok"}, ("pass", "", "")),
    (-11, False, "Fatal Python error: Segmentation fault\n\nCurrent thread 0x7f (most recent call first):\n", None,
     ("crash", "SIGSEGV", "Fatal Python error: Segmentation fault")),
    (-7, False, "", None, ("crash", "SIGBUS", "killed by SIGBUS")),
    (-9, False, "", None, ("crash", "SIGKILL", "killed by SIGKILL")),
    (3, False, "", None, ("fail", "", "exit status 3")),
    (1, False, "Traceback (most recent call last):\n  File \"x\"\nValueError: bad value\n", None,
     ("fail", "", "ValueError: bad value")),
    (1, False, WORKER_SEGV, None,
     ("worker_crash", "SIGSEGV", "RuntimeError: DataLoader worker (pid 4011) is killed by signal: Segmentation fault.")),
    (1, False, WORKER_BUS_ONLY, None, ("worker_crash", "SIGBUS", "ERROR: Unexpected bus error encountered in worker")),
    (1, False, "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).\n"
     "RuntimeError: DataLoader worker (pid 77) is killed by signal: Bus error. It is possible that dataloader's "
     "workers are out of shared memory. Please try to raise your shared memory limit.\n"
     "RuntimeError: DataLoader worker (pid(s) 77) exited unexpectedly\n", None,
     ("worker_crash", "SIGBUS", "DataLoader worker (pid 77) is killed by signal: Bus error.")),
    (1, False, LOST_WORKER_NO_SIGNAL, None, ("worker_crash", "", "ConnectionResetError")),
    (1, False, "RuntimeError: DataLoader worker (pid(s) 77) exited unexpectedly\n", None,
     ("worker_crash", "", "exited unexpectedly")),
    (1, False, DDP_RANK, None, ("worker_crash", "SIGSEGV", "process 1 terminated with signal SIGSEGV")),
    (1, False, "torch.AcceleratorError: CUDA error: an illegal instruction was encountered\n", None,
     ("cuda_error", "", "an illegal instruction was encountered")),
    (1, False, "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED\n", None,
     ("cuda_error", "", "CUDNN_STATUS_EXECUTION_FAILED")),
    (1, False, "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, ...\n",
     None, ("cuda_error", "", "Cannot re-initialize CUDA")),
    (-6, False, "terminate called after ... CUDA error: device-side assert triggered\n", None,
     ("cuda_error", "SIGABRT", "device-side assert triggered")),
    (1, False, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n", None,
     ("oom", "", "CUDA out of memory")),
    (1, False, "Traceback (most recent call last):\nMemoryError\n", None, ("oom", "", "MemoryError")),
    (1, False, "RuntimeError: unable to allocate shared memory(shm) for file </torch_1_2>: No space left on device (28)\n",
     None, ("oom", "", "unable to allocate shared memory")),
    (1, False, "OSError: [Errno 24] Too many open files\n", None, ("fail", "", "Too many open files")),
    (None, True, "still going\n", None, ("timeout", "", "timed out after 5 s")),
    (-15, True, "", None, ("timeout", "", "timed out")),
    (0, False, "", {"status": "skip", "reason": "device=cuda but no CUDA here"}, ("skip", "", "no CUDA here")),
    (1, False, "", {"status": "nan", "reason": "loss is nan at step 7"}, ("nan", "", "loss is nan at step 7")),
    (139, False, "run.sh: line 3: 4242 Segmentation fault      python train.py\n", None,
     ("crash", "SIGSEGV", "Segmentation fault")),
]


@pytest.mark.parametrize("rc,timed_out,stderr,report,expected", CASES)
def test_classify(rc, timed_out, stderr, report, expected):
    v = classify(rc, timed_out=timed_out, stderr=stderr, report=report, timeout_s=5)
    outcome, sig, fragment = expected
    assert (v.outcome.value, v.signal) == (outcome, sig)
    assert fragment in v.error
    assert "\n" not in v.error
