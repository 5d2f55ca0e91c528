"""The pure classifier, table-driven, with the messages PyTorch, CUDA, CPython, Hydra and Lightning really print."""

import contextlib
import os

import pytest
from conftest import ROOT

from crashmatrix.outcome import Outcome
from crashmatrix.verdict.classify import classify, signed_by_place
from crashmatrix.verdict.remedies import remedy
from crashmatrix.verdict.signature import VOCABULARY, mask

WORKER_SEGV = """\
ERROR: Unexpected segmentation fault encountered in worker.
Traceback (most recent call last):
  File ".../torch/utils/data/dataloader.py", line 1251, in _try_get_data
RuntimeError: DataLoader worker (pid 4011) is killed by signal: Segmentation fault.
"""
# Recorded: examples/ocr_app under inject, fork + 2 workers + pin_memory (torch 2.13): the main process's
# report came through torch's logging, its prefix glued to the line.
WORKER_SEGV_LOGGED = """\
ERROR: Unexpected segmentation fault encountered in worker.
W1122 16:54:15.636000 6011 torch/autograd/profiler.py:858] RuntimeError: DataLoader worker (pid 6054) is killed by signal: Segmentation fault.
"""
WORKER_BUS_ONLY = """\
ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).
Traceback (most recent call last):
  File ".../torch/multiprocessing/reductions.py", line 541, in rebuild_storage_fd
ConnectionResetError: [Errno 104] Connection reset by peer
"""
LOST_WORKER_NO_SIGNAL = """\
Traceback (most recent call last):
  File ".../torch/utils/data/dataloader.py", line 1291, in _try_get_data
    data = self._data_queue.get(timeout=timeout)
  File ".../torch/multiprocessing/reductions.py", line 541, in rebuild_storage_fd
    fd = df.detach()
ConnectionResetError: [Errno 104] Connection reset by peer
"""
# The twenty-seventh held-out set's ex_queue_producer_exited (recorded, shortened): the program's own
# torch.multiprocessing queue, whose producer exited 0 before its tensors were read. No DataLoader, no worker
# lost: the program's ConnectionRefusedError.
QUEUE_PRODUCER_GONE = """\
Traceback (most recent call last):
  File "/app/exkit/machinery.py", line 98, in extract_features
    return [q.get(timeout=10) for _ in range(n)]
  File "/usr/lib/python3.11/multiprocessing/queues.py", line 122, in get
    return _ForkingPickler.loads(res)
  File ".../torch/multiprocessing/reductions.py", line 538, in rebuild_storage_fd
    fd = df.detach()
  File "/usr/lib/python3.11/multiprocessing/connection.py", line 646, in SocketClient
    s.connect(address)
ConnectionRefusedError: [Errno 111] Connection refused
"""
# Recorded: dataloader probe, sharing_strategy=file_descriptor, rlimit.nofile=32, 2 workers, fork (torch 2.13).
# The workers' feeder threads hit EMFILE first; the main process then dies of a bare EOFError.
FD_EOF = """\
Traceback (most recent call last):
  File "/usr/lib/python3.11/multiprocessing/queues.py", line 244, in _feed
  File "/usr/lib/python3.11/multiprocessing/resource_sharer.py", line 48, in __init__
OSError: [Errno 24] Too many open files
Traceback (most recent call last):
  File "/usr/lib/python3.11/multiprocessing/resource_sharer.py", line 145, in _serve
    send(conn, destination_pid)
  File "/usr/lib/python3.11/socket.py", line 546, in fromfd
    nfd = dup(fd)
OSError: [Errno 24] Too many open files
Traceback (most recent call last):
  File ".../torch/utils/data/dataloader.py", line 1291, in _try_get_data
    data = self._data_queue.get(timeout=timeout)
  File ".../torch/multiprocessing/reductions.py", line 538, in rebuild_storage_fd
    fd = df.detach()
  File "/usr/lib/python3.11/multiprocessing/reduction.py", line 159, in recvfds
    raise EOFError
EOFError
"""
# Same cell, another repeat: torch's own message, then a worker's feeder thread's OSError printed last.
FD_RUNTIME_THEN_OSERROR = """\
Traceback (most recent call last):
  File ".../torch/utils/data/dataloader.py", line 1326, in _try_get_data
    raise RuntimeError(
RuntimeError: Too many open files. Communication with the workers is no longer possible. Please increase the \
limit using `ulimit -n` in the shell or change the sharing strategy by calling \
`torch.multiprocessing.set_sharing_strategy('file_system')` at the beginning of your code
Traceback (most recent call last):
  File "/usr/lib/python3.11/multiprocessing/queues.py", line 244, in _feed
  File "/usr/lib/python3.11/multiprocessing/resource_sharer.py", line 48, in __init__
OSError: [Errno 24] Too many open files
"""
FD_ANCDATA = """\
  File "/usr/lib/python3.11/multiprocessing/reduction.py", line 164, in recvfds
    raise RuntimeError('received %d items of ancdata' %
RuntimeError: received 0 items of ancdata
Traceback (most recent call last):
  File ".../torch/multiprocessing/reductions.py", line 538, in rebuild_storage_fd
ConnectionResetError: [Errno 104] Connection reset by peer
"""
# Hydra 1.3, an override of a key the app's config does not have.
HYDRA_BAD_OVERRIDE = """\
Could not override 'start_method'.
To append to your config use +start_method=fork
Key 'start_method' is not in struct
    full_key: start_method
    object_type=dict

Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.
"""
HYDRA_JOB_EXCEPTION = """\
Error executing job with overrides: ['boom=true']
Traceback (most recent call last):
  File "/app/train.py", line 12, in main
    raise ValueError("the job failed on purpose")
ValueError: the job failed on purpose

Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.
"""
# Hydra 1.3 instantiating Lightning's Trainer with accelerator=gpu on a box without one (the template
# app's `trainer=gpu`, recorded here): no traceback, the reason between a headline and full_key.
HYDRA_INSTANTIATE = """\
Seed set to 12345
Error executing job with overrides: ['logger=csv', 'trainer=gpu']
Error in call to target 'pytorch_lightning.trainer.trainer.Trainer':
MisconfigurationException('No supported gpu backend found!')
full_key: trainer

Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.
"""
LIGHTNING_MISCONFIG = """\
Traceback (most recent call last):
  File "/app/fit.py", line 9, in <module>
    pl.Trainer(max_epochs=1, accelerator="cpu", devices=0)
lightning_fabric.utilities.exceptions.MisconfigurationException: `devices` can only be set to a positive integer.
/venv/lib/python3.11/site-packages/wandb/sdk/wandb_run.py:2311: UserWarning: Run (abc123) is finished.
"""
SPAWN_NO_MAIN_GUARD = """\
RuntimeError:
        An attempt has been made to start a new process before the
        current process has finished its bootstrapping phase.
Traceback (most recent call last):
  File ".../torch/utils/data/dataloader.py", line 1251, in _try_get_data
RuntimeError: DataLoader worker (pid(s) 4242) exited unexpectedly
"""
DDP_RANK = """\
torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGSEGV
"""

CASES = [
    # (returncode, timed_out, stderr, report) -> (outcome, signal, error fragment, signature)
    # An empty fragment means an empty error.
    (0, False, "", {"status": "ok"}, ("pass", "", "", "")),
    (
        -11,
        False,
        "Fatal Python error: Segmentation fault\n\nCurrent thread 0x7f (most recent call first):\n",
        None,
        ("crash", "SIGSEGV", "Fatal Python error: Segmentation fault", "killed_by_signal"),
    ),
    (-7, False, "", None, ("crash", "SIGBUS", "killed by SIGBUS", "killed_by_signal")),
    (-9, False, "", None, ("crash", "SIGKILL", "killed by SIGKILL", "killed_by_signal")),
    (3, False, "", None, ("fail", "", "exit status 3", "exit status 3")),
    (
        1,
        False,
        'Traceback (most recent call last):\n  File "x"\nValueError: bad value\n',
        None,
        ("fail", "", "ValueError: bad value", "ValueError: bad value"),
    ),
    (
        1,
        False,
        WORKER_SEGV,
        None,
        (
            "worker_crash",
            "SIGSEGV",
            "RuntimeError: DataLoader worker (pid 4011) is killed by signal: Segmentation fault.",
            "worker_signal",
        ),
    ),
    (
        1,
        False,
        WORKER_SEGV_LOGGED,
        None,
        (
            "worker_crash",
            "SIGSEGV",
            "RuntimeError: DataLoader worker (pid 6054) is killed by signal: Segmentation fault.",
            "worker_signal",
        ),
    ),
    (
        1,
        False,
        WORKER_BUS_ONLY,
        None,
        ("worker_crash", "SIGBUS", "ERROR: Unexpected bus error encountered in worker", "worker_signal"),
    ),
    (
        1,
        False,
        "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).\n"
        "RuntimeError: DataLoader worker (pid 77) is killed by signal: Bus error. It is possible that dataloader's "
        "workers are out of shared memory. Please try to raise your shared memory limit.\n"
        "RuntimeError: DataLoader worker (pid(s) 77) exited unexpectedly\n",
        None,
        (
            "worker_crash",
            "SIGBUS",
            "DataLoader worker (pid 77) is killed by signal: Bus error.",
            "worker_signal",
        ),
    ),
    (1, False, LOST_WORKER_NO_SIGNAL, None, ("worker_crash", "", "ConnectionResetError", "worker_lost")),
    (
        1,
        False,
        QUEUE_PRODUCER_GONE,
        None,
        ("fail", "", "ConnectionRefusedError", "ConnectionRefusedError: [Errno N] Connection refused"),
    ),
    (
        1,
        False,
        "RuntimeError: DataLoader worker (pid(s) 77) exited unexpectedly\n",
        None,
        ("worker_crash", "", "exited unexpectedly", "worker_exited"),
    ),
    (
        1,
        False,
        DDP_RANK,
        None,
        ("rank_crash", "SIGSEGV", "rank 1 killed by SIGSEGV", "killed_by_signal"),
    ),
    (  # a rank killed by nothing else that failed: no launcher sent it (the OOM killer, a user's kill)
        1,
        False,
        "torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGKILL\n",
        None,
        ("rank_crash", "SIGKILL", "rank 1 killed by SIGKILL", "killed_by_signal"),
    ),
    (
        1,
        False,
        "torch.AcceleratorError: CUDA error: an illegal instruction was encountered\n",
        None,
        ("cuda_error", "", "an illegal instruction was encountered", "cuda_illegal_instruction"),
    ),
    (
        1,
        False,
        "torch.AcceleratorError: CUDA error: an illegal memory access was encountered\n",
        None,
        ("cuda_error", "", "an illegal memory access", "cuda_illegal_memory_access"),
    ),
    (
        1,
        False,
        "RuntimeError: CUDA error: unspecified launch failure\n",
        None,
        ("cuda_error", "", "unspecified launch failure", "cuda_launch_failure"),
    ),
    (
        1,
        False,
        "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED\n",
        None,
        ("cuda_error", "", "CUDNN_STATUS_EXECUTION_FAILED", "cudnn_error CUDNN_STATUS_EXECUTION_FAILED"),
    ),
    (
        1,
        False,
        "RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR\n",
        None,
        ("cuda_error", "", "CUDNN_STATUS_INTERNAL_ERROR", "cudnn_error CUDNN_STATUS_INTERNAL_ERROR"),
    ),
    (
        1,
        False,
        "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, ...)`\n",
        None,
        ("cuda_error", "", "CUBLAS_STATUS_EXECUTION_FAILED", "cublas_error"),
    ),
    (
        1,
        False,
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, "
        "unhandled system error\n",
        None,
        ("cuda_error", "", "NCCL error in:", "nccl_error"),
    ),
    (
        -6,
        False,
        "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE) ran for "
        "600000 milliseconds before timing out.\n",
        None,
        ("cuda_error", "SIGABRT", "Watchdog caught collective operation timeout", "nccl_timeout"),
    ),
    (
        1,
        False,
        "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, ...\n",
        None,
        (
            "fail",
            "",
            "Cannot re-initialize CUDA",
            "cuda_after_fork",
        ),  # torch's refusal on the host, no CUDA runtime error
    ),
    (
        -6,
        False,
        "terminate called after ... CUDA error: device-side assert triggered\n",
        None,
        ("cuda_error", "SIGABRT", "device-side assert triggered", "cuda_device_assert"),
    ),
    (
        1,
        False,
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n",
        None,
        (
            "cuda_error",
            "",
            "no kernel image",
            "RuntimeError: CUDA error: no kernel image is available for execution on the device",
        ),
    ),
    (
        1,
        False,
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
        None,
        ("oom", "", "CUDA out of memory", "cuda_oom"),
    ),
    (
        1,
        False,
        "Traceback (most recent call last):\nMemoryError\n",
        None,
        ("oom", "", "MemoryError", "memory_error: MemoryError"),
    ),
    (
        1,
        False,
        "RuntimeError: unable to allocate shared memory(shm) for file </torch_1_2>: No space left on device (28)\n",
        None,
        ("oom", "", "unable to allocate shared memory", "shm_full"),
    ),
    (1, False, "OSError: [Errno 24] Too many open files\n", None, ("fail", "", "Too many open files", "fd_exhaustion")),
    (1, False, FD_EOF, None, ("fail", "", "OSError: [Errno 24] Too many open files", "fd_exhaustion")),
    (
        1,
        False,
        FD_RUNTIME_THEN_OSERROR,
        None,
        ("fail", "", "RuntimeError: Too many open files. Communication with the workers", "fd_exhaustion"),
    ),
    (1, False, FD_ANCDATA, None, ("fail", "", "received 0 items of ancdata", "fd_exhaustion")),
    (
        1,
        False,
        SPAWN_NO_MAIN_GUARD,
        None,
        ("fail", "", "An attempt has been made to start a new process", "missing_main_guard"),
    ),
    (
        1,
        False,
        'Traceback (most recent call last):\n  File ".../torch/utils/data/_utils/pin_memory.py", line 53, '
        "in _pin_memory_loop\nConnectionResetError: [Errno 104] Connection reset by peer\n",
        None,
        ("worker_crash", "", "ConnectionResetError", "pin_memory_thread"),
    ),
    (
        1,
        False,
        HYDRA_BAD_OVERRIDE,
        None,
        (
            "fail",
            "",
            "Could not override 'start_method'. Key 'start_method' is not in struct",
            "Could not override 'start_method'. Key 'start_method' is not in struct",
        ),
    ),
    (
        1,
        False,
        HYDRA_JOB_EXCEPTION,
        None,
        ("fail", "", "ValueError: the job failed on purpose", "ValueError: the job failed on purpose"),
    ),
    (
        1,
        False,
        HYDRA_INSTANTIATE,
        None,
        (
            "fail",
            "",
            "Error in call to target 'pytorch_lightning.trainer.trainer.Trainer': "
            "MisconfigurationException('No supported gpu backend found!')",
            "Error in call to target 'pytorch_lightning.trainer.trainer.Trainer': "
            "MisconfigurationException('No supported gpu backend found!')",
        ),
    ),
    (
        1,
        False,
        LIGHTNING_MISCONFIG,
        None,
        (
            "fail",
            "",
            "MisconfigurationException: `devices` can only be set to a positive integer.",
            "lightning_fabric.utilities.exceptions.MisconfigurationException: `devices` can only be set to a positive integer.",
        ),
    ),
    (None, True, "still going\n", None, ("timeout", "", "timed out after 5 s", "hang")),
    (-15, True, "", None, ("timeout", "", "timed out", "hang")),
    (None, True, FD_EOF, None, ("timeout", "", "timed out after 5 s", "fd_exhaustion")),
    (0, False, "", {"status": "skip", "reason": "device=cuda but no CUDA here"}, ("skip", "", "no CUDA here", "")),
    (
        1,
        False,
        "",
        {"status": "nan", "reason": "loss is nan at step 7"},
        ("nan", "", "loss is nan at step 7", "non_finite"),
    ),
    (
        139,
        False,
        "run.sh: line 3: 4242 Segmentation fault      python train.py\n",
        None,
        ("crash", "SIGSEGV", "Segmentation fault", "killed_by_signal"),
    ),
]


@pytest.mark.parametrize("rc,timed_out,stderr,report,expected", CASES)
def test_classify(rc, timed_out, stderr, report, expected):
    v = classify(rc, timed_out=timed_out, stderr=stderr, report=report, timeout_s=5)
    outcome, sig, fragment, signature = expected
    assert (v.outcome.value, v.signal, v.signature) == (outcome, sig, signature)
    assert fragment in v.error if fragment else v.error == ""
    assert "\n" not in v.error
    assert "HYDRA_FULL_ERROR" not in v.error


def test_a_known_signature_is_a_word_of_the_vocabulary():
    for *_, (_outcome, _sig, _fragment, signature) in CASES:
        if signature and " " not in signature:
            assert signature in VOCABULARY, signature


MASKED = [
    # (line, what the signature keeps)
    ("RuntimeError: DataLoader worker (pid 4011) exited unexpectedly", "DataLoader worker (pid N) exited unexpectedly"),
    ("RuntimeError: DataLoader worker (pid(s) 4011, 4012) exited unexpectedly", "(pid(s) N) exited"),
    ("Segfault at 0x7f3a2b1c0000 in frame", "Segfault at 0x… in frame"),
    ("OSError: cannot open /tmp/pymp-k2j3h4/listener-abc: refused", "cannot open /tmp/…: refused"),
    ("unable to open shared memory object </torch_4242_1234567_3> in read-write mode", "</torch_…>"),
    ('File "/app/train.py", line 88, in step: ValueError', "line N, in step"),
    ("Signal 11 (SIGSEGV) received by PID 31337", "received by PID N"),
]


@pytest.mark.parametrize("line,kept", MASKED)
def test_mask_hides_what_changes_between_runs(line, kept):
    assert kept in mask(line)
    assert mask(line) == mask(line.replace("4011", "5022").replace("4242", "999").replace("31337", "7"))


def test_a_logging_prefix_is_not_part_of_the_telling_line():
    """torch's logger glues `W1122 16:54:15.636000 6011 file.py:858] ` to the line; its time and pid
    would make every error line differ from run to run."""
    assert classify(1, stderr=WORKER_SEGV_LOGGED).error == (
        "RuntimeError: DataLoader worker (pid 6054) is killed by signal: Segmentation fault."
    )


# Recorded: a collective mismatch under torchrun (the zoo's torchrun_mismatch, tests/zoo/app/zoo/ddp.py, runs
# one like it), rank 0's stderr (torch 2.13.0+cpu): rank 0 all_reduces a [4] tensor, rank 1 an [8] one; gloo's own thread throws and C++ terminates the process.
# (Paths renamed.) faulthandler lists the main thread as `Thread`: the thread that died ran no Python.
TERMINATE_MISMATCH = """\
terminate called after throwing an instance of 'gloo::EnforceNotMet'
  what():  [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:456] \
op.preamble.length <= op.nbytes. 8 vs 4. Received data size doesn't match expected size. Is there a distributed \
collective mismatch in your code?
Fatal Python error: Aborted

Thread 0x00007f8618450b80 (most recent call first):
  File "/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3252 in all_reduce
  File "/venv/lib/python3.11/site-packages/torch/distributed/c10d_logger.py", line 83 in wrapper
  File "/srv/app/mismatch.py", line 10 in class_counts
  File "/srv/app/mismatch.py", line 19 in main
"""
# Recorded: the same program's rank 0 when rank 1 ran out of batches and ended (fault=peer_gone), in two
# repeats: which side of the socket noticed first decides the message; the port is new every run.
GLOO_CLOSED = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by "
    "peer [127.0.0.1]:1425. This is typically caused by a remote worker crashing. Check the logs of the remote "
    "worker before reporting an error. GLHF!\n"
)
GLOO_RESET = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] Read error "
    "[127.0.0.1]:43201: Connection reset by peer. This is typically caused by a remote worker hanging or bugs in "
    "the application.\n"
)


# Recorded: the same mismatch under torch.multiprocessing.spawn (2 gloo ranks, torch 2.13.0+cpu; paths renamed,
# faulthandler's module list cut): rank 0 aborts, spawn ends rank 1 and names process 0.
SPAWN_TERMINATE = """\
terminate called after throwing an instance of 'gloo::EnforceNotMet'
  what():  [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:456] op.preamble.length <= op.nbytes. 8 vs 4. Received data size doesn't match expected size. Is there a distributed collective mismatch in your code?
Fatal Python error: Aborted

Thread 0x00007fc53e826b80 (most recent call first):
  File "/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3252 in all_reduce
  File "/venv/lib/python3.11/site-packages/torch/distributed/c10d_logger.py", line 83 in wrapper
  File "/srv/app/spawn_mm.py", line 6 in class_counts
  File "/srv/app/spawn_mm.py", line 13 in run
  File "/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 87 in _wrap
  File "/usr/lib/python3.11/multiprocessing/process.py", line 108 in run
  File "/usr/lib/python3.11/multiprocessing/process.py", line 314 in _bootstrap
  File "/usr/lib/python3.11/multiprocessing/spawn.py", line 135 in _main
  File "/usr/lib/python3.11/multiprocessing/spawn.py", line 122 in spawn_main
  File "<string>", line 1 in <module>

Extension modules: torch._C, torch._C._nn (total: 2)
W1127 07:53:25.697000 13545 torch/multiprocessing/spawn.py:165] Terminating process 13716 via signal SIGTERM
Traceback (most recent call last):
  File "/srv/app/spawn_mm.py", line 16, in <module>
    mp.spawn(run, nprocs=2)
  File "/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 340, in spawn
    return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 296, in start_processes
    while not context.join():
              ^^^^^^^^^^^^^^
  File "/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 192, in join
    raise ProcessExitedException(
torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with signal SIGABRT
"""


def test_a_cpp_terminate_before_sigabrt_is_told_by_its_what_line():
    v = classify(-6, stderr=TERMINATE_MISMATCH)
    assert (v.outcome.value, v.signal) == ("crash", "SIGABRT")
    assert v.error.startswith("what(): [enforce fail at /__w/pytorch/") and v.error.endswith("in your code?")
    # the type and message, without the build's path and line; not `killed_by_signal`
    assert v.signature == (
        "gloo::EnforceNotMet: op.preamble.length <= op.nbytes. N vs N. Received data size doesn't match expected "
        "size. Is there a distributed collective mismatch in your code?"
    )
    shell = classify(134, stderr=TERMINATE_MISMATCH)  # through a shell: 128 + SIGABRT
    assert (shell.outcome.value, shell.signature) == ("crash", v.signature)


def test_an_abort_on_a_thread_without_python_is_placed_by_the_programs_thread():
    from crashmatrix.verdict import forensics

    assert forensics.own_fault_frame(TERMINATE_MISMATCH) == "mismatch.py:10 in class_counts"


def test_a_ranks_abort_is_told_by_the_what_line_printed_before_its_dump():
    v = classify(1, stderr=SPAWN_TERMINATE)
    assert (v.outcome.value, v.signal, v.rank) == ("rank_crash", "SIGABRT", 0)
    assert v.error.startswith("what(): [enforce fail at") and v.signature.startswith("gloo::EnforceNotMet: op.pre")
    assert v.signature == classify(-6, stderr=TERMINATE_MISMATCH).signature  # the same failure, either launcher


def test_a_terminate_line_tells_only_an_abort():
    # A SIGSEGV after such lines (another thread's) is not told by them.
    assert classify(-11, stderr=TERMINATE_MISMATCH).signature == "killed_by_signal"


def test_a_gloo_peer_lost_is_one_failure_whichever_side_noticed_and_whatever_the_port():
    closed, reset = classify(1, stderr=GLOO_CLOSED), classify(1, stderr=GLOO_RESET)
    assert (closed.outcome.value, closed.signature) == ("fail", "gloo_peer_lost")
    assert reset.signature == closed.signature
    assert "Connection closed by peer [127.0.0.1]:1425" in closed.error  # error keeps what was said


ADDRESSES = [
    # (line, what the signature keeps): every one differs between repeats or machines
    ("Connection closed by peer [127.0.0.1]:9615. GLHF", "Connection closed by peer …addr…. GLHF"),
    ("connect() to [::1]:1234 failed", "connect() to …addr… failed"),
    ("The server socket has failed to listen on 127.0.0.1:29500 (errno: 98)", "listen on …addr… (errno"),
    ("failed to connect to localhost:29500", "connect to …addr…"),
    ("init_method=tcp://10.0.0.2:23456 timed out", "tcp://…addr… timed out"),
    ("address already in use on port 29500", "on port N"),
    ("[enforce fail at ../third_party/gloo/gloo/transport/tcp/pair.cc:456] op.preamble.length", "op.preamble.length"),
    ("NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:93, invalid usage", "in: NCCLUtils.cpp:N, inv"),
    ("thread 140234567 tid 4242 stuck", "thread N tid N stuck"),
    ("Thread 0x00007f8618450b80 (most recent call first)", "Thread 0x… (most recent"),
    ("FileNotFoundError: ./tmpk2j3l4m_/shard.bin", "./tmp…/shard.bin"),
    ("FileExistsError: '/psm_1a2b3c4d'", "/psm_…"),
    ("rendezvous a3f9c2e1b4d5e6f7a8 closed", "rendezvous …id… closed"),
    ("at 2026-11-27_07:16:21 rank 1 failed", "at …time… rank N failed"),
    # a cell's own folder and TMPDIR: another repeat, another run, another folder
    ("No such file: '/home/u/runs/r/cells/9417c88129-r2/tmp/tmpab_cd123/x.pt'", "No such file: '…cell…/tmp/…'"),
    ("cannot write runs/m-20261125-140642/cells/9417c88129-r0/ckpt.pt", "cannot write …cell…/ckpt.pt"),
    ("run dir hunt-overlapping-20261125-140642 is locked", "hunt-overlapping-…time… is locked"),
    # a checkout's or a home's path is the machine's: TorchScript names the program's file by it
    (
        'defaults: File "/work/heldout2/tests/zoo/app/zoo/modes/h_jit_kwargs.py", line 11',
        'File "…/h_jit_kwargs.py", line N',
    ),
    ("no config at /home/ana/proj/conf/train.yaml", "no config at …/train.yaml"),
    # an installed package's file keeps its package: a broken install is told by it (remedies)
    ("No such file: '/venv/lib/python3.11/site-packages/x/v.txt'", "No such file: '…/site-packages/x/v.txt'"),
    # tempfile's name under the program's own prefix, which holds a worker's pid (the sixty-ninth held-out set's
    # en_worker_tmpdir_missing: `mkdtemp(prefix=f"envkit-w{os.getpid()}-")`, three repeats, three signatures)
    ("No such file: '/nonexistent/scratch/envkit-w12764-i8v9y_2f'", "No such file: '…/envkit-wN-…'"),
    ("No such file: '/nonexistent/scratch/envkit-w12486-y9cn1l30'", "No such file: '…/envkit-wN-…'"),
    ("No such file: '/scratch/ckpt_qw4tkzbd.pt'", "No such file: '…/ckpt_….pt'"),
]


@pytest.mark.parametrize(
    "name",
    [
        "fc1.weight",
        "resnet152.pt",
        "resnet1001",
        "gfx1030",
        "cp1252",
        "layer1024",
        "float16",
        "data/train_features",
        "optim.momentum",
        "scenario/p_hydra_type_mismatch",
        "\\u2192",
    ],
)
def test_a_names_own_digits_and_words_stay_in_a_quoted_name(name):
    # a review's false merges of the first try: `gfx1030` and `gfx1100`, `cp1252` and `cp1251` are two names
    assert mask(f"No such file: '{name}'") == f"No such file: '{name}'"


@pytest.mark.parametrize(
    "path",
    [
        "/scratch/ckpt_qwhtkzbd.pt",  # tempfile's 8 random characters, letters only: 8 names in 100
        "/scratch/ckpt_ab12_d9x.tar.gz",
        "/scratch/job_9f3a2c4e1b7d4e0f8a6b5c3d2e1f0a9b",  # uuid4().hex after the prefix's `_`
    ],
)
def test_a_random_name_under_a_prefix_is_masked_whatever_its_characters(path):
    assert mask(f"No such file: '{path}'").count("…") == 2, mask(f"No such file: '{path}'")


def test_a_programs_file_names_stay_in_a_path_tempfiles_would_mask():
    # a module's file, a word after `_`: no random name (the sixty-third set's pf_setprofile_return_keyerror)
    line = "KeyError: <frame at 0x7f, file '/w/zoo/modes/pf_setprofile_return_keyerror.py', line 9, code train>"
    assert "'…/pf_setprofile_return_keyerror.py'" in mask(line)
    assert "'…/t_ddp_bcast_unpickle.py'" in mask("<module 'x' from '/w/zoo/modes/t_ddp_bcast_unpickle.py'>")


@pytest.mark.parametrize("line,kept", ADDRESSES)
def test_mask_hides_ports_addresses_and_build_paths(line, kept):
    assert kept in mask(line), mask(line)


def test_a_deaths_signature_takes_the_programs_frame_from_where_without_its_line():
    from crashmatrix.verdict.signature import with_place

    assert with_place("killed_by_signal", "libc.so.6 (+0x19bc5c); app/io.py:42 in parse_header") == (
        "killed_by_signal in app/io.py:parse_header"
    )
    assert (
        with_place("worker_signal", "probes/fault.py:62 in _real_segv") == "worker_signal in probes/fault.py:_real_segv"
    )
    assert with_place("killed_by_signal", "libc.so.6 (+0x19bc5c)") == "killed_by_signal"  # no frame of its own
    assert with_place("killed_by_signal", "") == "killed_by_signal"
    assert with_place("shm_full", "app/io.py:42 in parse_header") == "shm_full"  # a cause says more
    # ... but running out of files in two places of the program is two failures (the seventy-ninth set's four:
    # model.share_memory(), a Manager list's append, a thread's queue put, mp.spawn's arguments)
    assert with_place("fd_exhaustion", "torch/storage.py:527 in _share_fd_cpu_; app/io.py:42 in parse_header") == (
        "fd_exhaustion in app/io.py:parse_header"
    )


def _recorded(folder: str, name: str) -> str:
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", folder, f"{name}.stderr.log")) as f:
        return f.read()


def test_torch_loads_refusal_is_told_by_what_it_refused_and_says_what_fixes_it():
    # Recorded: tests/data/weights-only/*.py.txt run alone (torch 2.13), a checkpoint holding a numpy scalar and
    # one holding an argparse.Namespace: torch's first line is the same for both, the global it refused is not.
    scalar = classify(1, stderr=_recorded("weights-only", "numpy_scalar"))
    namespace = classify(1, stderr=_recorded("weights-only", "argparse_namespace"))
    assert (scalar.outcome, scalar.error) == (
        Outcome.FAIL,
        "_pickle.UnpicklingError: Weights only load failed. WeightsUnpickler error: Unsupported global: "
        "GLOBAL numpy._core.multiarray.scalar was not an allowed global by default.",
    )
    assert namespace.signature.endswith(": GLOBAL argparse.Namespace was not an allowed global by default.")
    assert scalar.signature != namespace.signature
    assert "add_safe_globals" in remedy(scalar.signature) and "weights_only=False" in remedy(namespace.signature)
    # torch 2.4 and 2.5 (their wording, from their source and users' reports; not run here): the reason on the
    # advice's own line, or after a blank one
    older = _recorded("weights-only", "numpy_scalar").split("_pickle.UnpicklingError")[0] + (
        "_pickle.UnpicklingError: Weights only load failed. Re-running `torch.load` with `weights_only` set to "
        "`False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
        "file from a trusted source.\nPlease file an issue with the following so that we can make "
        "`weights_only=True` compatible with your use case: WeightsUnpickler error: {}Unsupported operand 118\n"
    )
    for gap in ("", "\n\n"):
        told = classify(1, stderr=older.format(gap))
        assert told.error.endswith("Weights only load failed. WeightsUnpickler error: Unsupported operand 118")
        # one failure whatever number the message carries (grouping 2): this pickle opcode's, another's
        assert told.signature == told.error.replace("118", "N")
    assert remedy(classify(1, stderr="RuntimeError: Weights only load failed.").signature) == ""


def test_a_message_whose_first_line_ends_with_a_colon_is_told_with_the_line_it_announces():
    # Recorded: tests/data/state-dict/state_dict.py.txt run alone (torch 2.13). load_state_dict's first line is
    # the same for every mismatch; a missing key and a size mismatch are two failures with two fixes.
    missing = classify(1, stderr=_recorded("state-dict", "missing"))
    size = classify(1, stderr=_recorded("state-dict", "size"))
    assert (
        missing.error
        == 'RuntimeError: Error(s) in loading state_dict for Net: Missing key(s) in state_dict: "fc.bias".'
    )
    assert size.error.startswith("RuntimeError: Error(s) in loading state_dict for Net: size mismatch for fc.weight:")
    assert missing.signature != size.signature
    # a first line that ends otherwise stays alone, and so does one that ends the output
    assert classify(1, stderr="Traceback (most recent call last):\nValueError: bad\n\tmore").error == "ValueError: bad"
    assert classify(1, stderr="Traceback (most recent call last):\nKeyError: missing:\n").error == "KeyError: missing:"


def _recorded_cell(run: str, **values) -> str:
    """The stderr.log of a recorded run's first repeat of the cell with these values."""
    import csv

    folder = os.path.join(ROOT, "tests", "zoo", "recorded", run)
    with open(os.path.join(folder, "results.csv"), newline="") as f:
        (row,) = [r for r in csv.DictReader(f) if r["repeat"] == "0" and all(r[k] == v for k, v in values.items())]
    with open(os.path.join(folder, row["log_dir"], "stderr.log")) as f:
        return f.read()


def test_load_state_dicts_list_is_read_whole_and_signed_by_the_least_of_each_kind():
    # Recorded: the fortieth held-out set's qz_int8_into_float (an int8 model's state_dict loaded into the float
    # one) and the reported set's r_module_prefix (a DDP checkpoint's `module.` keys), each run alone: torch's
    # message lists the missing keys, then on a line of its own after a tab the unexpected ones, which tell the
    # two apart; the signature kept the first line only (HELDOUT40.md, its one untrue answer).
    quantized_text = _recorded_cell("heldout40/app", case="qz_int8_into_float")
    quantized = classify(1, stderr=quantized_text)
    assert quantized.error.endswith(
        'Unexpected key(s) in state_dict: "quant.scale", "quant.zero_point", '
        '"fc1.scale", "fc1.zero_point", "fc1._packed_params.dtype", '
        '"fc1._packed_params._packed_params", "fc2.scale", "fc2.zero_point", '
        '"fc2._packed_params.dtype", "fc2._packed_params._packed_params".'
    )
    assert quantized.signature == (
        'RuntimeError: Error(s) in loading state_dict for Net: Missing key(s) in state_dict: "fc1.bias", …. '
        'Unexpected key(s) in state_dict: "fc1._packed_params._packed_params", ….'
    )
    # by the least key, not the first: a checkpoint built from a set lists its keys in another order each run
    shuffled = quantized_text.replace('"quant.scale", "quant.zero_point"', '"quant.zero_point", "quant.scale"')
    assert classify(1, stderr=shuffled).signature == quantized.signature
    prefixed = classify(1, stderr=_recorded_cell("reported-before/single", mode="r_module_prefix"))
    assert prefixed.signature.endswith('Unexpected key(s) in state_dict: "module.fc1.bias", ….')
    # two size mismatches (tests/data/state-dict, run alone): each parameter by its name, the shapes left out
    size = classify(1, stderr=_recorded("state-dict", "size"))
    assert size.signature == (
        "RuntimeError: Error(s) in loading state_dict for Net: size mismatch for fc.weight. size mismatch for fc.bias."
    )
    assert "torch.Size([3, 4]) from checkpoint" in size.error


def test_a_torchscript_models_error_is_told_by_what_its_interpreter_raised_at_the_models_line():
    # Recorded: tests/data/torchscript/scripted.py.txt run alone (torch 2.13: a scripted module adds tensors of 5
    # and 8), and the fortieth held-out set's qz_trace_batch_baked (a traced model whose batch size the trace
    # baked in, given a batch of 5). TorchScript's headline is the same for every error its interpreter raises;
    # the error is the last line of its message, the op's line the one its own traceback names.
    from diagnose_agreement import _checkout_paths

    from crashmatrix.verdict.exception_place import exception_place

    size = "RuntimeError: The size of tensor a (5) must match the size of tensor b (8) at non-singleton dimension 0"
    scripted = _recorded("torchscript", "scripted")
    told = classify(1, stderr=scripted)
    assert told.error == f"{size} (in the TorchScript interpreter)"
    assert exception_place(scripted, error=told.error) == (
        "torch/nn/modules/module.py:1789 in _call_impl; scripted.py:7 in forward, traced from scripted.py:12 in main"
    )
    with contextlib.chdir(os.path.join(ROOT, "tests", "zoo", "app", "qz_proj")):
        traced = _checkout_paths(_recorded_cell("heldout40/app", case="qz_trace_batch_baked"))
        told = classify(1, stderr=traced)
        where = exception_place(traced, error=told.error)
    assert told.error == f"{size} (in the TorchScript interpreter)"
    assert where == (
        "torch/nn/modules/module.py:1789 in _call_impl; qkit/model.py:35 in forward, traced from qkit/evaluate.py:11 "
        "in accuracy"
    )
    assert signed_by_place(told, where).signature.endswith("(in the TorchScript interpreter) in qkit/model.py:forward")
    # a review's two (tests/data/torchscript/two_ways.py.txt run alone): a traced torch module given the wrong width
    # fails in torch's op, no line of the program's model (its trace call is none); a scripted function's own raise
    # is placed at that raise, called from the program's line with no torch frame between
    traced = _recorded("torchscript", "traced_linear")
    assert exception_place(traced, error=classify(1, stderr=traced).error) == (
        "torch/nn/modules/module.py:1789 in _call_impl; a.py:16 in main"
    )
    raised = _recorded("torchscript", "scripted_raise")
    told = classify(1, stderr=raised)
    assert told.error == "builtins.ValueError: positive input (in the TorchScript interpreter)"
    assert exception_place(raised, error=told.error) == "a.py:9 in check, traced from a.py:18 in main"


# A child's error, then a gloo rank's lost peer (shortened from the recorded dx_spawn_bcast_object_lock)
THREAD_THEN_LOST = """\
Process Process-1:
Traceback (most recent call last):
  File "/app/up.py", line 17, in up
    raise ConnectionError("metrics upload failed")
ConnectionError: metrics upload failed
Process Process-2:
Traceback (most recent call last):
  File "/app/up.py", line 30, in rank_main
    dist.all_reduce(t)
RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:48817
"""


def test_a_lost_peer_is_the_consequence_of_the_child_that_failed_first():
    # Recorded: the forty-third held-out set's dx_spawn_bcast_object_lock run alone: two ranks started with
    # mp.Process; rank 0 (Process-1) cannot pickle the lock in what it broadcasts, rank 1 (Process-2) then loses its
    # peer in the same broadcast (gloo's `Connection closed by peer`), the main says `a rank failed`. The row said
    # gloo_peer_lost, the consequence (HELDOUT43.md, untrue there).
    told = classify(1, stderr=_recorded_cell("heldout43/single", mode="dx_spawn_bcast_object_lock"))
    assert told.signature == "TypeError: cannot pickle '_thread.RLock' object"
    assert told.error.startswith("TypeError: cannot pickle '_thread.RLock' object; in process Process-1, first: then ")
    assert "Connection closed by peer" in told.error
    # a thread's error ends no process: the peer's loss is not its doing (a review's metrics-upload thread)
    thread = THREAD_THEN_LOST.replace("Process Process-1:", "Exception in thread Thread-1 (up):")
    assert classify(1, stderr=thread).signature == "gloo_peer_lost"
    assert classify(1, stderr=THREAD_THEN_LOST).signature.startswith("ConnectionError: metrics upload failed")


def test_a_glog_prefixs_date_never_splits_a_failure():
    # Recorded: the forty-third held-out set's dx_reduce_scatter_odd_grads, gloo's check as c10 prints it; the
    # month and day (`F1130`) would sign another day's run of it anew
    said = (
        "RuntimeError: [rank1]:[F1130 13:43:33.727411735 ProcessGroupGloo.cpp:1537] Check failed: a == b (50 vs. 51)."
    )
    assert mask(said) == "RuntimeError: [rank N]:[F …time… ProcessGroupGloo.cpp:N] Check failed: a == b (N vs. N)."
    assert mask(said.replace("F1130", "F0102")) == mask(said)


def test_inductor_without_a_compiler_says_what_fixes_it():
    # Recorded: tests/data/inductor/no_compiler.py.txt run alone with CXX=/nonexistent/g++ (torch 2.13, CPU)
    told = classify(1, stderr=_recorded("inductor", "no_compiler"))
    assert told.error.startswith("torch._inductor.exc.InductorError: InvalidCxxCompiler: No working C++ compiler")
    assert "apt-get install g++" in remedy(told.signature) and 'backend="aot_eager"' in remedy(told.signature)


def test_a_config_value_nobody_gave_says_where_to_give_it():
    # Recorded: tests/data/hydra-missing/missing.py.txt run alone with its config (missing.config.yaml.txt, whose
    # model.width is `???`): Hydra prints the program's frame that read the value, and the key
    told = classify(1, stderr=_recorded("hydra-missing", "missing"))
    assert told.error == "omegaconf.errors.MissingMandatoryValue: Missing mandatory value: model.width", told.error
    fix = remedy(told.signature)
    assert "leaves `model.width` to be given (`???`)" in fix and "`model.width=VALUE` on its command line" in fix
    assert "`params: {model.width: VALUE}`" in fix
    # another missing key: its own fix; another omegaconf error has none of this kind
    other = _recorded("hydra-missing", "missing").replace("model.width", "layers.0.width")
    assert "`layers.0.width=VALUE`" in remedy(classify(1, stderr=other).signature)
    assert remedy(classify(1, stderr="omegaconf.errors.ConfigKeyError: Key 'x' is not in struct\n").signature) == ""


def test_a_library_refusing_the_programs_input_is_the_programs_to_fix():
    # Recorded: tests/data/usage/lightning_usage.py.txt run alone, mode=resume_missing (Lightning's fit resuming
    # from a checkpoint never written), mode=wandb_online (no API key here) and mode=gpu_on_cpu. Each raises in
    # the library by design; the bug report went to Lightning's and wandb's maintainers.
    missing = classify(1, stderr=_recorded("usage", "resume_missing"))
    assert missing.error == "FileNotFoundError: Checkpoint file not found: checkpoints/last.ckpt"
    assert remedy(missing.signature).startswith("a file the program asked for is not there")
    wandb = classify(1, stderr=_recorded("usage", "wandb_online"))
    assert wandb.error.startswith("wandb.errors.errors.UsageError: No API key configured.")
    assert "`wandb login`" in remedy(wandb.signature) and "`wandb` knob at `offline`" in remedy(wandb.signature)
    # Lightning's MisconfigurationException, by its class the program's setting: recorded with mode=gpu_on_cpu,
    # Trainer(accelerator="gpu") here, where there is none
    misconfigured = classify(1, stderr=_recorded("usage", "gpu_on_cpu"))
    assert misconfigured.error.endswith("MisconfigurationException: No supported gpu backend found!")
    assert remedy(misconfigured.signature).startswith("Lightning refused a setting the program gave it")
    # a file missing from an installed package is the install's: no remedy of the program's
    broken = "FileNotFoundError: [Errno 2] No such file or directory: '/venv/lib/python3.11/site-packages/x/v.txt'"
    assert remedy(classify(1, stderr=broken + "\n").signature) == ""


@pytest.mark.parametrize("name", ["misspelled", "bad_argument"])
def test_hydras_instantiate_of_a_bad_target_says_the_config_is_to_fix(name):
    # Recorded: tests/data/hydra-instantiate/instantiate.py.txt run alone, +target=misspelled (a class path that
    # does not resolve) and +target=bad_argument (a key the class does not take). Hydra prints its message, no
    # traceback: the report said "no installed library's code (it ended in hydra/_internal/utils.py ...)"
    told = classify(1, stderr=_recorded("hydra-instantiate", name))
    assert told.error.startswith({"misspelled": "Error locating target 'torch.nn.Linera'"}.get(name, "Error in call"))
    assert remedy(told.signature).startswith("Hydra could not build what the config's `_target_` names")


@pytest.mark.parametrize(
    "name, error",
    [
        ("append_existing", "Could not append to config. An item is already at 'model'."),
        ("delete_missing", "Could not delete from config. 'nokey' does not exist."),
    ],
)
def test_hydras_override_errors_are_told_by_their_headline_not_a_hint(name, error):
    # Recorded: tests/data/hydra-overrides/overrides.py.txt (its config: overrides.config.yaml.txt) run alone with
    # `+model=resnet` (model is there already) and `~nokey`. Hydra prints no traceback; the row said the
    # append's last hint, "Or add a second + to add or override 'model': '++model=resnet'"
    told = classify(1, stderr=_recorded("hydra-overrides", name))
    assert (told.outcome.value, told.error, told.signature) == ("fail", error, error)
    assert remedy(told.signature).startswith("Hydra refused an override the program was started with")


def test_cuda_asked_of_a_cpu_build_of_torch_is_the_programs_setting():
    # Recorded: tests/data/no-cuda/cpu_build.py.txt run alone here (torch 2.13.0+cpu): torch asserts in
    # torch/cuda/__init__.py, by design, and the bug report was "For PyTorch's tracker"
    told = classify(1, stderr=_recorded("no-cuda", "cpu_build"))
    assert (told.outcome.value, told.error) == ("fail", "AssertionError: Torch not compiled with CUDA enabled")
    assert remedy(told.signature).startswith("the program asks for CUDA, and the torch it ran with is a build")


def test_a_memory_error_of_a_library_s_own_class_is_memory_run_out():
    # numpy's _ArrayMemoryError subclasses MemoryError: held-out set 2's h_numpy_huge_alloc (tests/zoo/HELDOUT2.md)
    text = "numpy._core._exceptions._ArrayMemoryError: Unable to allocate 2.00 PiB for an array with shape (1, 2)\n"
    got = classify(1, stderr=text)
    assert (got.outcome, got.signature) == (
        Outcome.OOM,
        "memory_error: numpy._core._exceptions._ArrayMemoryError: Unable to allocate N.N PiB for an array with shape (…)",
    )


def test_an_abort_is_told_by_glibcs_own_words_before_faulthandlers():
    # held-out set 2's h_double_free, alone: glibc's line, then faulthandler's dump (tests/zoo/recorded/heldout2/)
    text = (
        "free(): double free detected in tcache 2\nFatal Python error: Aborted\n\n"
        "Current thread 0x00007fe63eab8b80 (most recent call first):\n"
        '  File "/app/zoo/modes/h_double_free.py", line 12 in release\n'
    )
    got = classify(-6, stderr=text)
    assert (got.outcome, got.signal, got.error) == (
        Outcome.CRASH,
        "SIGABRT",
        "free(): double free detected in tcache 2",
    )
    # a line of the program's before the dump is not glibc's: faulthandler's line stays the telling one
    assert classify(-6, stderr="step 3 done\n" + text.split("\n", 1)[1]).error == "Fatal Python error: Aborted"


def test_a_hang_after_a_thread_died_names_the_threads_exception():
    # held-out set 2's h_hang_dead_thread_lock: the thread died holding the lock the main then waits on for ever
    text = (
        "Exception in thread metrics:\nTraceback (most recent call last):\n"
        '  File "/app/zoo/modes/h_hang_dead_thread_lock.py", line 12, in flush_metrics\n'
        "ValueError: Unknown format code 'f' for object of type 'str'\n"
    )
    got = classify(None, stderr=text, timed_out=True, timeout_s=30)
    assert got.outcome is Outcome.TIMEOUT
    assert (
        got.error
        == "timed out after 30 s, after thread metrics died: ValueError: Unknown format code 'f' for object of type 'str'"
    )


def test_a_hang_after_a_queues_feeder_thread_failed_to_pickle_names_that_failure():
    # the seventieth held-out set's pk_hang_queue_feeder_lock: an mp.Queue item holds a lock; the queue's feeder
    # thread prints its pickling error and drops the item, and the main waits in q.get() for ever
    text = _recorded_cell("heldout70/hangs-inject", mode="pk_hang_queue_feeder_lock")
    got = classify(None, stderr=text, timed_out=True, timeout_s=30)
    assert got.error == (
        "timed out after 30 s, after a multiprocessing queue's feeder thread dropped what it could not pickle: "
        "TypeError: cannot pickle '_thread.lock' object"
    )


TASKGROUP = """\
  + Exception Group Traceback (most recent call last):
  |   File "/app/load.py", line 13, in <module>
  |     asyncio.run(main())
  |   File "/usr/lib/python3.11/asyncio/runners.py", line 190, in run
  |   File "/app/load.py", line 9, in main
  |     async with asyncio.TaskGroup() as tg:
  |   File "/usr/lib/python3.11/asyncio/taskgroups.py", line 145, in __aexit__
  |     raise me from None
  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
  +-+---------------- 1 ----------------
    | Traceback (most recent call last):
    |   File "/app/load.py", line 5, in load
    |     raise ValueError(f"shard {i} is empty")
    | ValueError: shard 1 is empty
    +------------------------------------
"""


def test_an_exception_group_is_told_by_its_first_sub_exception_where_it_was_raised():
    # Python 3.11's boxed traceback of an asyncio TaskGroup (python3.11 alone): the row said its last box line,
    # `+------------------------------------`, with no place
    from crashmatrix.verdict.exception_place import exception_place

    got = classify(1, stderr=TASKGROUP)
    assert (
        got.error
        == "ValueError: shard 1 is empty (in ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception))"
    )
    assert got.signature.startswith("ValueError: shard N is empty (in ExceptionGroup")
    assert exception_place(TASKGROUP).endswith("load.py:5 in load")


def test_a_programs_own_path_with_no_extension_is_masked_too():
    said = "subprocess.CalledProcessError: Command '['/home/ana/proj/.venv/bin/python', 'prep.py']' returned 3."
    assert "'…/python'" in mask(said)
    assert mask("cannot open /dev/nvidia0") == "cannot open /dev/nvidia0"  # a device is the failure's own


def test_memory_refused_to_the_process_names_its_size_and_its_limits():
    # the sixteenth held-out set's b_rlimit_as_alloc, recorded: the program capped its own address space
    # (RLIMIT_AS) and torch's allocator was refused, errno 12; no OOM killer, exit status 1
    cell = os.path.join(os.path.dirname(os.path.abspath(__file__)), "zoo", "recorded", "heldout16", "single")
    with open(os.path.join(cell, "cells", "2ef903d264-r0", "stderr.log")) as f:
        got = classify(1, stderr=f.read())
    assert got.outcome == Outcome.OOM
    # signed by what was refused, in the allocator's words (held-out sets 16 and 50 counted `memory_error` alone untrue)
    assert got.signature.startswith("memory_error: RuntimeError: err == N. DefaultCPUAllocator: can't allocate memory")
    fix = remedy(f"{got.signature} in zoo/modes/b_rlimit_as_alloc.py:build_features")
    assert "its size is in the message" in fix and "ulimit -v" in fix and "/proc/PID/limits" in fix
    assert remedy("cuda_oom in train.py:step") == ""  # the GPU's memory: no such limit to look at


# glibc's heap check as it aborts (the eighth and twenty-first held-out sets' double free and overrun): told by
# glibc's words, signed by them and the program's frame where it was found, with what to run to find the write.
HEAP_ABORT = """\
free(): invalid next size (normal)
Fatal Python error: Aborted

Current thread 0x00007f9fddbbbb80 (most recent call first):
  File "/app/i_ops/native.py", line 37 in pack_row
  File "/app/train.py", line 72 in main
  File "/app/train.py", line 87 in <module>
"""


def test_glibcs_heap_check_is_a_crash_signed_by_its_words_and_place():
    from crashmatrix.verdict.classify import signed_by_place

    verdict = signed_by_place(classify(-6, stderr=HEAP_ABORT), "app/i_ops/native.py:37 in pack_row")
    assert (verdict.outcome, verdict.signal, verdict.error) == (
        Outcome.CRASH,
        "SIGABRT",
        "free(): invalid next size (normal)",
    )
    assert verdict.signature == "glibc_heap_check in app/i_ops/native.py:pack_row"
    assert "valgrind or AddressSanitizer" in remedy(verdict.signature)


def test_a_log_of_glibcs_heap_check_alone_is_a_crash_by_sigabrt():
    # a job's log that holds glibc's words and nothing after (the abort printed nothing more, no dump)
    from crashmatrix.verdict.classify import tells_a_failure

    assert tells_a_failure("epoch 0\nfree(): invalid next size (normal)\n")
    assert not tells_a_failure("epoch 0\nfree() of the cache done\n")


WATCHDOG = """\
Timeout (0:05:00)!
Thread 0x00007fa9b6aabb80 (most recent call first):
  File "/app/train.py", line 8 in fetch
  File "/app/train.py", line 16 in <module>
"""


def test_a_watchdog_dump_is_the_failure_only_where_it_ended_the_process():
    ended = classify(1, stderr="epoch 0\n" + WATCHDOG)
    assert ended.signature == "faulthandler_timeout" and ended.error.startswith("Timeout (0:05:00)!"), ended
    # a dump that repeats (exit=False, pytest's faulthandler_timeout) while the program goes on and fails otherwise
    went_on = classify(1, stderr=WATCHDOG + "ERROR: validation loss is nan, stopping\n")
    assert went_on.signature != "faulthandler_timeout" and went_on.error == "ERROR: validation loss is nan, stopping"
    assert classify(3, stderr=WATCHDOG).signature != "faulthandler_timeout"  # _exit(1) is the watchdog's status


def test_a_thread_the_os_refused_names_the_limits_that_refuse_one():
    # the fiftieth held-out set's rx_prefetch_thread_as, recorded (run alone: the program capped its address space at
    # 512 MiB, below what torch maps, and its prefetch thread's 8 MiB stack did not fit: `RuntimeError: can't start
    # new thread`). Python's words name no limit; the report names the ones that refuse a thread, memory's first
    cells = os.path.join(os.path.dirname(os.path.abspath(__file__)), "zoo", "recorded", "heldout50", "app", "cells")
    logs = [os.path.join(cells, c, "stderr.log") for c in sorted(os.listdir(cells))]
    log = next(p for p in logs if "can't start new thread" in open(p, encoding="utf-8").read())
    with open(log, encoding="utf-8") as f:
        got = classify(1, stderr=f.read())
    assert got.error == "RuntimeError: can't start new thread", got
    fix = remedy(f"{got.signature} in limitkit/data.py:__init__")
    assert "`ulimit -v`" in fix and "RLIMIT_AS" in fix and "`ulimit -u`" in fix and "/proc/PID/limits" in fix


def test_openmps_refused_threads_name_the_count_and_the_limits():
    # the hundredth held-out set's omp_threads_as, recorded (run alone: the program capped its address space and asked
    # for 16 OpenMP threads on 2 cores; libgomp printed `Thread creation failed: Resource temporarily unavailable` and
    # the process exited 1). The report said only that no installed library's code was on a stack
    cell = os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "zoo", "recorded", "heldout100", "app", "cells", "54cf8f777e-r0"
    )
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8") as f:
        got = classify(1, stderr=f.read())
    assert got.signature.startswith("libgomp: Thread creation failed"), got
    fix = remedy(got.signature)
    assert "OMP_NUM_THREADS" in fix and "RLIMIT_AS" in fix and "`ulimit -u`" in fix, fix


def test_another_process_half_written_word_before_the_exception_is_no_part_of_its_line():
    # a fresh clone's make test (the README's quickstart, fork and 2 workers, one of two cells): the worker's dump and
    # the main's report shared stderr, and the main's line came glued to another's unfinished word. The row's error
    # was `, torch._C._specialRuntimeError: DataLoader worker (pid 24501) ...`, and the README's table moved
    glued = ", torch._C._specialRuntimeError: DataLoader worker (pid 24501) is killed by signal: Segmentation fault. \n"
    assert classify(1, stderr=glued).error == (
        "RuntimeError: DataLoader worker (pid 24501) is killed by signal: Segmentation fault."
    )
    # a class whose name ends in a builtin's is its own name
    oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
    assert classify(1, stderr=oom).error == "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."


def test_a_spawned_workers_own_traceback_as_it_started_is_the_failure_not_the_loaders_word():
    # The sixty-seventh held-out set, run alone: DataLoader workers under multiprocessing_context="spawn" each print
    # their traceback from spawn_main as they unpickle the dataset (a class defined under train.py's `if __name__ ==
    # "__main__":`; a module the parent loaded from a file by path) and exit 1; the main then raises the loader's
    # `DataLoader worker (pid(s) N) exited unexpectedly`. Recorded under tests/zoo/recorded/heldout67/.
    main_class = classify(1, stderr=_recorded_cell("heldout67/app", **{"--case": "im_spawn_main_class"}))
    by_path = classify(1, stderr=_recorded_cell("heldout67/single", mode="im_spawn_plugin_by_path"))
    assert (main_class.outcome, main_class.signal) == (Outcome.WORKER_CRASH, "")
    assert main_class.signature == (
        "AttributeError: Can't get attribute 'JitterDataset' on <module '__mp_main__' from '…/train.py'> "
        "in multiprocessing/spawn.py:_main"
    )
    assert main_class.error.startswith("AttributeError: Can't get attribute 'JitterDataset'")
    assert "; in a DataLoader worker as it started, first: the main then failed with RuntimeError: DataLoader" in (
        main_class.error
    )
    assert by_path.signature == "ModuleNotFoundError: No module named 'augment_ops' in multiprocessing/spawn.py:_main"
    for told in (main_class, by_path):
        assert remedy(told.signature).startswith("a process started by spawn (or forkserver) rebuilds what its parent")
    # placed where it failed, in the worker, and at the program's line whose loop started the workers
    from crashmatrix.verdict import forensics
    from crashmatrix.verdict.evidence import Evidence

    text = _recorded_cell("heldout67/app", **{"--case": "im_spawn_main_class"})
    _verdict, where = forensics.refine(main_class, Evidence(pid=0, started=0.0, stderr=text), kernel_log=lambda *_: [])
    assert where == "multiprocessing/spawn.py:132 in _main; layoutkit/train.py:11 in fit"
    # a worker that ended itself with a status, printing nothing of its own, keeps the loader's word
    plain = "RuntimeError: DataLoader worker (pid(s) 4242) exited unexpectedly\n"
    assert classify(1, stderr=plain).signature == "worker_exited"


def test_a_death_by_the_sessions_hangup_says_how_to_outlive_the_session():
    # the seventy-first held-out set's hd_sighup_session_closed: the session's SIGHUP, no handler, nothing printed
    told = classify(-1, stderr="")
    assert (told.outcome, told.signal) == (Outcome.CRASH, "SIGHUP")
    assert "`nohup`, `setsid`" in remedy(told.signature, told.signal)


def test_a_wait_with_a_timeout_after_a_queues_feeder_dropped_an_item_says_so_without_picking():
    # From a review, run alone (tests/data/worker-exit/feeder-dropped-then-empty.err): an mp.Queue item holds a lock;
    # the feeder thread prints `TypeError: cannot pickle '_thread.lock' object` and drops it; `q.get(timeout=3)`
    # then raises `_queue.Empty` at r3_feeder_then_fail.py:5, exit 1. A second review's programs printed the same
    # drop from another queue and then waited on a queue that was only slow: the text cannot tell which, so the
    # verdict is the wait's own and its error and remedy name the drop.
    from crashmatrix.verdict.remedies import FEEDER_DROPPED, FEEDER_NOT_IT, remedy_told

    path = os.path.join(ROOT, "tests", "data", "worker-exit", "feeder-dropped-then-empty.err")
    with open(path, encoding="utf-8") as f:
        stderr = f.read()
    told = classify(1, stderr=stderr)
    assert (told.outcome, told.signature) == (Outcome.FAIL, "_queue.Empty")
    assert told.error == (
        "_queue.Empty; a multiprocessing queue's feeder thread had dropped, unable to pickle it: "
        "TypeError: cannot pickle '_thread.lock' object, which this wait may have been for"
    )
    # a review's slow producer after an unrelated drop: the remedy gives the wait's own reason too
    assert remedy_told(told.signature, "", told.error) == f"{FEEDER_DROPPED}; if it was another's, {FEEDER_NOT_IT}"
    assert signed_by_place(told, "r3_feeder_then_fail.py:5 in <module>").signature == (
        "_queue.Empty in r3_feeder_then_fail.py:<module>"
    )


def test_a_threads_queue_that_ran_dry_is_not_told_by_another_queues_dropped_item():
    # From a review, run alone (tests/data/worker-exit/threads-queue-empty-after-feeder.err): an mp.Queue's feeder
    # drops a log item holding a lock; the program then waits on a queue.Queue its producer thread left empty (no
    # shards) and fails with `_queue.Empty` at r1_threadq.py:14, exit 1. Keeping the lock out fixes nothing.
    told = classify(1, stderr=_worker_exit_log("threads-queue-empty-after-feeder.err"))
    assert (told.outcome, told.error, told.signature) == (Outcome.FAIL, "_queue.Empty", "_queue.Empty")


def test_a_loader_timeout_after_a_feeder_dropped_an_item_keeps_its_kind_and_names_both_fixes():
    # From a review, run alone (tests/data/worker-exit/loader-timeout-feeder-dropped.err): a DataLoader sample
    # holds a lock; the worker's result-queue feeder prints `TypeError: cannot pickle '_thread.lock' object` and
    # drops it; DataLoader(timeout=5) then raises `DataLoader timed out after 5 seconds`, exit 1: raising the
    # timeout only turns it into a hang. A second review's (loader-slow-worker-unrelated-feeder.err): an unrelated
    # log queue's feeder drops its item, then a worker that sleeps 5 s runs out DataLoader(timeout=2): raising the
    # timeout fixes it, the pickling nothing. One text for both: both fixes, neither picked.
    from crashmatrix.verdict.remedies import FEEDER_DROPPED, REMEDIES, remedy_told

    for name, seconds in (("loader-timeout-feeder-dropped.err", 5), ("loader-slow-worker-unrelated-feeder.err", 2)):
        told = classify(1, stderr=_worker_exit_log(name))
        assert (told.outcome, told.signature) == (Outcome.FAIL, "loader_timeout"), name
        assert told.error == (
            f"RuntimeError: DataLoader timed out after {seconds} seconds; a multiprocessing queue's feeder thread had "
            "dropped, unable to pickle it: TypeError: cannot pickle '_thread.lock' object, which this wait may have "
            "been for"
        )
        fix = remedy_told(told.signature, "", told.error)
        assert fix == f"{FEEDER_DROPPED}; if it was another's, {REMEDIES['loader_timeout']}"


def _worker_exit_log(name: str) -> str:
    with open(os.path.join(ROOT, "tests", "data", "worker-exit", name), encoding="utf-8") as f:
        return f.read()


def test_crashmatrixs_own_words_under_inject_are_never_the_programs_error():
    # The seventy-ninth held-out set's sh_hogwild_fd_limit, run alone: the program lowers its own open-files limit,
    # then model.share_memory() raises `RuntimeError: unable to open shared memory object </torch_...> in read-write
    # mode: Too many open files (24)`, exit 1. Under inject, crashmatrix's report writer then ran out of files too
    # and said so on stderr; the row's error was that line of crashmatrix's.
    from crashmatrix.incell.injection import PREFIX
    from crashmatrix.verdict.classify import INJECT_PREFIX

    assert INJECT_PREFIX == f"{PREFIX} "
    path = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout79", "app", "cells", "237285cd90-r0", "stderr.log")
    with open(path, encoding="utf-8") as f:
        stderr = f.read()
    assert "crashmatrix inject: metrics not written" in stderr
    told = classify(1, stderr=stderr)
    assert told.error.startswith("RuntimeError: unable to open shared memory object </torch_"), told.error
    assert told.error.endswith("in read-write mode: Too many open files (24)"), told.error


def test_crashmatrixs_own_words_under_a_ranks_tee_label_are_never_its_error():
    # From a review, run alone (tests/data/torchrun-tee-inject-line.err): `torchrun --nproc-per-node 2 --tee 3`,
    # rank 1 raises `ValueError: shard 1 has 0 samples` at r6t.py:12, exit 1; under inject crashmatrix's rank file
    # could not be written (the program had lowered its open-files limit) and said so under torchrun's
    # `[default1]:` label, which the row then took for rank 1's error (fd_exhaustion).
    with open(os.path.join(ROOT, "tests", "data", "torchrun-tee-inject-line.err"), encoding="utf-8") as f:
        stderr = f.read()
    told = classify(1, stderr=stderr)
    assert told.error == "ValueError: shard 1 has 0 samples", told
    assert "fd_exhaustion" not in told.signature


def test_under_inject_a_traceback_printed_last_before_a_silent_death_is_no_failure_of_its_own():
    # From a review, run alone (tests/data/handled-traceback-then-kill.err): r1.py prints a handled ValueError's
    # traceback (traceback.print_exc()), turns faulthandler off, then kills itself by SIGSEGV mid-run (os.kill at
    # :16): status 139, nothing more printed. Under inject the recorder's report (written at exit) is missing, so the
    # death came before the exit: the signal is the failure. Without inject the text reads as an uncaught error then
    # a fault at exit, the commoner case, and is told so (the review's counter-example is named in classify).
    with open(os.path.join(ROOT, "tests", "data", "handled-traceback-then-kill.err"), encoding="utf-8") as f:
        stderr = f.read()
    under_inject = classify(-11, stderr=stderr, exit_recorded=True)
    assert (under_inject.outcome, under_inject.signal, under_inject.signature) == (
        Outcome.CRASH,
        "SIGSEGV",
        "killed_by_signal",
    )
    plain = classify(-11, stderr=stderr)
    assert plain.error == "ValueError: bad batch 3, skipping; then killed by SIGSEGV at exit"


def test_one_broken_heap_found_by_three_checks_over_three_repeats_is_one_failure():
    # the eighty-second held-out set's nc_free_view_pointer, its three recorded repeats (run alone: the same): the
    # program's C code free()s a numpy view's pointer (zoo/modes/nc_free_view_pointer.py:18 release_all); glibc reads
    # the floats before it as a chunk header, and which of its checks aborts varies with them
    from crashmatrix.verdict.classify import signed_by_place

    cells = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout82", "single", "cells")
    told = []
    for repeat in range(3):
        with open(os.path.join(cells, f"d6b36db2f6-r{repeat}", "stderr.log"), encoding="utf-8") as f:
            verdict = classify(-6, stderr=f.read())
        told.append((verdict.error, signed_by_place(verdict, "zoo/modes/nc_free_view_pointer.py:18 in release_all")))
    assert [error for error, _ in told] == [
        "double free or corruption (out)",
        "free(): invalid size",
        "munmap_chunk(): invalid pointer",
    ]
    assert {v.signature for _, v in told} == {"glibc_heap_check in zoo/modes/nc_free_view_pointer.py:release_all"}


def test_a_ctypes_callback_that_raised_before_the_main_failed_is_the_first_failure():
    # the eighty-second held-out set's nc_thread_cb_raises, its recorded stderr (run alone: the same): a C thread calls
    # the program's Python callback on_record, which raises KeyError: 7 at :21; ctypes prints `Exception ignored on
    # calling ctypes callback function` and returns to C, and the main later fails on the names the callback never
    # set (`RuntimeError: shape '[4, 8]' is invalid for input of size 31` at :31). As with a thread, the first
    # failure is the verdict.
    from crashmatrix.verdict.classify import signed_by_place
    from crashmatrix.verdict.exception_place import exception_place

    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout82", "single", "cells", "d8713ba8df-r0")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8") as f:
        stderr = f.read()
    told = classify(1, stderr=stderr)
    assert told.error == (
        "KeyError: 7; in ctypes callback on_record, first: the main then failed with RuntimeError: shape '[4, 8]' "
        "is invalid for input of size 31"
    )
    where = exception_place(stderr, error=told.error)
    assert where.endswith("nc_thread_cb_raises.py:21 in on_record"), where
    assert signed_by_place(told, where).signature.startswith("KeyError: N in "), told


def test_a_job_log_with_a_traceback_then_the_shells_segfault_line_tells_the_error_first(tmp_path):
    # a review's job log (tests/data/traceback-then-shell-segfault.log): the program's IndexError traceback (r1n.py:12,
    # uncaught), then its batch script's `line 9: 31337 Segmentation fault (core dumped) python r1n.py kind=index`: a
    # native exit handler faulted after the error. The run of the same program says the IndexError, then the signal.
    from crashmatrix.resolve.diagnose import diagnose
    from crashmatrix.resolve.log_text import read_logs

    found = diagnose(read_logs([os.path.join(ROOT, "tests", "data", "traceback-then-shell-segfault.log")]))
    assert (found.row["outcome"], found.row["signal"]) == ("crash", "SIGSEGV"), found.row
    assert found.row["error"] == "IndexError: list index out of range; then killed by SIGSEGV at exit", found.row
    assert found.row["signature"].startswith("IndexError: list index out of range in "), found.row


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("tangled.err", "Fatal Python error: Bus error"),
        ("words-on-next-line.err", "Fatal Python error: Bus error"),
        ("clean.err", "Fatal Python error: Bus error"),
        ("header-cut-off.err", "killed by SIGBUS"),
    ],
)
def test_two_threads_faulting_together_are_told_as_one_fault(name, error):
    # tests/data/threads-fault-together: four repeats of one program (4 OpenMP threads filling a mapping a full
    # /dev/shm cannot back, tests/test_fault_together.py) under inject, each dead by SIGBUS. In the first, two
    # threads wrote faulthandler's header at once: `Fatal Python error: Fatal Python error: Bus errorBus error`,
    # which explain had told as a second kind of failure beside the other repeat's; in another run, the second
    # thread's words went on to the next line (`Fatal Python error: Bus errorFatal Python error: `); in a third, the
    # process ended by another thread's fault as faulthandler wrote its header: `Fatal Python error: ` and no words.
    with open(os.path.join(ROOT, "tests", "data", "threads-fault-together", name)) as f:
        told = classify(-7, stderr=f.read())
    assert (told.outcome, told.signal, told.error) == (Outcome.CRASH, "SIGBUS", error)


def test_a_log_whose_fault_header_was_cut_off_is_told_by_torchs_signal():
    # tests/data/threads-fault-together/header-cut-off.err read alone, as `crashmatrix diagnose` reads a job's log: no
    # exit status, faulthandler's `Fatal Python error: ` without its words; torch's handler named SIGBUS before it
    from crashmatrix.resolve.diagnose import diagnose
    from crashmatrix.resolve.log_text import read_logs

    found = diagnose(read_logs([os.path.join(ROOT, "tests", "data", "threads-fault-together", "header-cut-off.err")]))
    assert (found.row["outcome"], found.row["signal"], found.row["error"]) == ("crash", "SIGBUS", "killed by SIGBUS")


def test_a_cpp_extension_that_does_not_compile_is_told_by_the_compilers_error():
    # the ninety-second set's xt_build_legacy_check (recorded): torch's `Error building extension` quotes ninja's build
    # command, the same for any error in that source; the compiler's first error, two lines on, says which
    from diagnose_agreement import diagnosed

    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout92", "single", "cells", "d0bac5c7ca-r0")
    row = diagnosed(cell)
    assert row["error"] == (
        "RuntimeError: Error building extension 'xt_roi_pool': main.cpp:4: error: ‘AT_CHECK’ was not declared in "
        "this scope; did you mean ‘CHECK’?"
    ), row


def _review96(name: str) -> str:
    with open(os.path.join(ROOT, "tests", "data", "review96", f"{name}.err"), encoding="utf-8") as f:
        return f.read()


def test_an_exception_groups_leaf_is_its_own_exception_and_a_group_too_deep_to_print_is_the_group():
    # tests/data/review96/README.md: a leaf raised `from` its cause is the leaf (its cause is printed first in the
    # box); a leaf past Python's max_group_depth is not in the log: the group, not Python's `...` line
    from crashmatrix.verdict.exception_place import exception_place

    chained = classify(1, stderr=_review96("p12_egchain"))
    assert chained.error.startswith("FetchError: shard 1 unavailable (in ExceptionGroup: "), chained
    assert exception_place(_review96("p12_egchain")) == "prog.py:8 in fetch"
    deep = classify(1, stderr=_review96("p5_egdeep"))
    assert deep.error == "ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)", deep


def test_a_cpp_extension_that_does_not_link_is_told_by_the_linkers_error():
    linked = classify(1, stderr=_review96("p8_link"))
    assert linked.error == (
        "RuntimeError: Error building extension 'fastops': ld: cannot find -lfastblas: No such file or directory"
    ), linked
