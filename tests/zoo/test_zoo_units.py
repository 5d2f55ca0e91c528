"""The small classification fixes the zoo needed, as pure functions over real text: the zoo's, and its
failures under other launchers."""

import ctypes
import os
import signal
import sys

import pytest

from crashmatrix.incell import rank_report
from crashmatrix.outcome import Outcome
from crashmatrix.verdict import forensics
from crashmatrix.verdict.classify import Verdict, classify, signed_by_place
from crashmatrix.verdict.evidence import Evidence
from crashmatrix.verdict.ranks import Recorded

# where two zoo hangs waited (crashmatrix's `where` of each, from stacks.txt), and where a repeat caught
# the first one a line further on
MAIN_WAITS = "main zoo/modes/main_hang.py:9 in wait_for_dataset"
MAIN_WAITS_NEXT_LINE = "main zoo/modes/main_hang.py:8 in wait_for_dataset"
WORKER_LOCKED = "main DataLoader _get_data (dataloader.py:1464); worker zoo/modes/fork_lock.py:24 in encode"


def _hang(where: str) -> Verdict:
    timed_out = Verdict(Outcome.TIMEOUT, "", "timed out after 20 s", "hang")
    verdict, _where = forensics.refine(timed_out, Evidence(pid=1, started=0.0, hang=("clause", where)))
    return verdict


def test_two_hangs_in_two_places_are_two_signatures_and_one_place_is_one():
    assert _hang(MAIN_WAITS).signature == "hang in zoo/modes/main_hang.py:wait_for_dataset"
    assert _hang(MAIN_WAITS_NEXT_LINE).signature == _hang(MAIN_WAITS).signature
    assert (
        _hang(WORKER_LOCKED).signature
        == "hang in main DataLoader _get_data (dataloader.py:N); zoo/modes/fork_lock.py:encode"
    )


def test_a_hang_with_no_place_found_stays_hang():
    assert _hang("").signature == "hang"


# The zoo's loader_timeout mode alone (DataLoader(timeout=1), a worker stalled 30 s): its last lines.
LOADER_TIMED_OUT = """\
  File "/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1449, in _get_data
    raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds")
RuntimeError: DataLoader timed out after {seconds} seconds
"""


def test_a_loader_timeout_is_one_failure_whatever_timeout_the_program_set():
    for seconds in (1, 120):
        verdict = classify(
            1, stderr="Traceback (most recent call last):\n" + LOADER_TIMED_OUT.replace("{seconds}", str(seconds))
        )
        assert (verdict.outcome, verdict.signature) == (Outcome.FAIL, "loader_timeout")
        assert verdict.error == f"RuntimeError: DataLoader timed out after {seconds} seconds"


# The zoo's loader_worker_kill alone (its worker SIGKILLs itself at sample 3), the main process's stderr
# in the two ways seen across 24 runs, 6 at a time: torch's SIGCHLD handler raised while the main waited
# for a batch (23 runs), or while it unpickled the batch the worker had just sent (1 run). Library paths
# shortened; the program's own are the zoo's, as in a cell.
_ZOO_MODES = os.path.join(os.path.dirname(__file__), "app", "zoo", "modes")
_HEARD_WAITING = """\
  File "/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1291, in _try_get_data
    data = self._data_queue.get(timeout=timeout)
  File "/usr/lib/python3.11/multiprocessing/queues.py", line 113, in get
    if not self._poll(timeout):
  File "/usr/lib/python3.11/selectors.py", line 415, in select
    fd_event_list = self._selector.poll(timeout)
"""
_HEARD_UNPICKLING = """\
  File "/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1291, in _try_get_data
    data = self._data_queue.get(timeout=timeout)
  File "/usr/lib/python3.11/multiprocessing/queues.py", line 122, in get
    return _ForkingPickler.loads(res)
  File "/venv/lib/python3.11/site-packages/torch/multiprocessing/reductions.py", line 538, in rebuild_storage_fd
    fd = df.detach()
  File "/usr/lib/python3.11/multiprocessing/connection.py", line 395, in _recv
    chunk = read(handle, remaining)
"""
_WORKER_KILLED = """\
Traceback (most recent call last):
{inner}  File "/venv/lib/python3.11/site-packages/torch/utils/data/_utils/signal_handling.py", line 73, in handler
    _error_if_any_worker_fails()
RuntimeError: DataLoader worker (pid 1662) is killed by signal: Killed.

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "{modes}/../../main.py", line 17, in <module>
    main()
  File "{modes}/loader_worker_kill.py", line 18, in main
    for _batch in DataLoader(Samples(fault=load_image), batch_size=2, num_workers=1):
  File "/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1304, in _try_get_data
    raise RuntimeError(
RuntimeError: DataLoader worker (pid(s) 1662) exited unexpectedly
"""


def test_a_worker_killed_without_a_word_is_placed_alike_whatever_the_main_was_doing():
    wheres = []
    for inner in (_HEARD_WAITING, _HEARD_UNPICKLING):
        stderr = _WORKER_KILLED.format(inner=inner, modes=_ZOO_MODES)
        verdict = classify(1, stderr=stderr)
        assert (verdict.outcome, verdict.signal, verdict.signature) == (
            Outcome.WORKER_CRASH,
            "SIGKILL",
            "worker_signal",
        )
        _verdict, where = forensics.refine(
            verdict, Evidence(pid=1, started=0.0, stderr=stderr), kernel_log=lambda _t: []
        )
        wheres.append(where)
    assert wheres == [
        "the main process heard of it at zoo/modes/loader_worker_kill.py:18 in main",
        "the main process heard of it in rebuild_storage_fd (reductions.py:538), at zoo/modes/loader_worker_kill.py:18 in main",
    ]


# torchrun_worker_segv (rank 1's loader worker segfaults), real stderrs: library paths shortened, the app's
# written {app}. Under load, rank 1's own words come three ways (36 runs alone, 6 at a time): torch's
# `DataLoader worker (pid N) is killed by signal` (23), a bare ConnectionResetError from the dead worker's
# connection (10), or a traceback cut short after CPython's `lost sys.stderr` (3). The same DDP under
# mp.spawn (zoo/ddp.py's spawn("worker_segv"), 12 runs alone, 4 at a time): the ConnectionResetError in 3.
_RANK_TEXTS = os.path.join(os.path.dirname(__file__), "..", "data", "rank-worker-deaths")
_APP = os.path.join(os.path.dirname(__file__), "app")


def _rank_worker_segv(name: str, app: str = _APP) -> tuple[Verdict, str]:
    with open(os.path.join(_RANK_TEXTS, name), encoding="utf-8", errors="replace") as f:
        # a console script is told by the interpreter beside it: the tests' own venv's bin stands for the run's
        stderr = f.read().replace("{app}", app).replace("/venv/bin/", os.path.join(sys.prefix, "bin") + "/")
    verdict = classify(1, stderr=stderr)
    verdict, where = forensics.refine(verdict, Evidence(pid=1, started=0.0, stderr=stderr), kernel_log=lambda _t: [])
    return signed_by_place(verdict, where), where


# under inject: the worker's own dump places it. Rank 1's traceback stops at ddp_main.py:11, no exception line;
# in a CI run (the zoo's, 1 repeat of 3) after `lost sys.stderr` none of it came, only torchrun's `exitcode: 1`
@pytest.mark.parametrize("name", ["torchrun-cut-off-under-inject.err", "torchrun-no-words-under-inject.err"])
def test_a_rank_whose_traceback_was_cut_short_is_told_by_its_workers_death(name):
    verdict, where = _rank_worker_segv(name)
    assert (verdict.outcome, verdict.signal, verdict.rank) == (Outcome.WORKER_CRASH, "SIGSEGV", 1)
    assert verdict.signature == "worker_signal in zoo/ddp.py:decode_on_rank1"
    assert where == "libc.so.6 (+0x167ad8); zoo/ddp.py:43 in decode_on_rank1"


def test_a_ranks_lost_worker_is_its_own_failure_and_heard_of_in_its_own_traceback():
    # alone, no dump: rank 1 raised ConnectionResetError in rebuild_storage_fd (its worker's, not a peer
    # rank's connection); torchrun's own traceback ends stderr and is not where rank 1 heard of it
    # (under mp.spawn it was read as a peer that ended early: `rank_ended_early`, no rank)
    for name in ("torchrun-connection-reset-alone.err", "spawn-connection-reset-alone.err"):
        verdict, where = _rank_worker_segv(name)
        assert (verdict.outcome, verdict.signal, verdict.rank) == (Outcome.WORKER_CRASH, "SIGSEGV", 1), name
        assert verdict.signature == "worker_signal"
        assert where == (
            "the main process heard of it in rebuild_storage_fd (reductions.py:538), at zoo/ddp.py:75 in train"
        ), name


def test_a_ranks_lost_worker_is_placed_where_the_job_heard_of_it_when_the_ranks_stack_has_no_program_frame():
    # tests/apps/lightning_ddp/train.py fault=worker_segv:1 trainer.strategy=ddp_spawn, alone (2 runs, the
    # same): rank 1's worker segfaults while Lightning's loop draws a batch, so rank 1's traceback holds
    # no frame of the program; the job's process heard of it at trainer.fit (train.py:68). `where` was empty.
    lightning = os.path.join(os.path.dirname(__file__), "..", "apps", "lightning_ddp")
    verdict, where = _rank_worker_segv("lightning-ddp-spawn-alone.err", os.path.normpath(lightning))
    assert (verdict.outcome, verdict.signal, verdict.rank) == (Outcome.WORKER_CRASH, "SIGSEGV", 1)
    assert where == "the main process heard of it at tests/apps/lightning_ddp/train.py:68 in main"


# A torchrun rank whose loader worker was SIGKILLed (the OOM killer's signal), under inject: 18 runs, 6 at a
# time. In 14 rank 1 said `DataLoader worker (pid N) is killed by signal: Killed.`; in 3 only
# ConnectionResetError, in 1 its traceback was cut short (`lost sys.stderr`). The recorder saw the worker's
# SIGKILL at rank 1's end in those 4 (crashmatrix.incell.rank_report): one failure, one signature.
@pytest.mark.parametrize(
    "name, pid, alone",
    [
        ("torchrun-kill-connection-reset-inject.err", 10314, "worker_lost"),
        ("torchrun-kill-cut-off-inject.err", 10552, "message = connection.recv_bytes(N) # reject large message"),
    ],
)
def test_a_ranks_worker_gone_without_a_word_has_the_signal_the_recorder_saw(name, pid, alone):
    with open(os.path.join(_RANK_TEXTS, name), encoding="utf-8", errors="replace") as f:
        stderr = f.read().replace("{app}", _APP)
    assert classify(1, stderr=stderr).signature == alone  # what the text alone tells
    recorded = [Recorded(1000, 0, ended=2.0), Recorded(1001, 1, ended=1.0, killed_children=((pid, "SIGKILL"),))]
    verdict = classify(1, stderr=stderr, recorded=recorded)
    assert (verdict.outcome, verdict.signal, verdict.signature, verdict.rank) == (
        Outcome.WORKER_CRASH,
        "SIGKILL",
        "worker_signal",
        1,
    )
    assert verdict.error.endswith(f"; its DataLoader worker (pid {pid}) was killed by SIGKILL")


def test_a_main_process_whose_worker_went_without_a_word_has_the_signal_the_recorder_saw():
    # the zoo's loader_worker_kill in a full make test, 1 repeat of 3: the main process was unpickling the
    # worker's batch (rebuild_storage_fd) as the SIGKILLed worker's sockets closed, and said only
    # ConnectionResetError; torch's `is killed by signal: Killed.` never came. The other two repeats, and
    # 40 of 40 runs 6 at a time beside two CPU hogs, said it: worker_signal.
    with open(os.path.join(_RANK_TEXTS, "main-kill-connection-reset-inject.err"), encoding="utf-8") as f:
        stderr = f.read().replace("{app}", _APP)
    assert classify(1, stderr=stderr).signature == "worker_lost"  # what the text alone tells
    # the recorder's word, as the main process's report.json holds it (crashmatrix.incell.injection)
    verdict = classify(1, stderr=stderr, report={"killed_children": {"26577": "SIGKILL", "26580": "SIGTERM"}})
    assert (verdict.outcome, verdict.signal, verdict.signature, verdict.rank) == (
        Outcome.WORKER_CRASH,
        "SIGKILL",
        "worker_signal",
        None,
    )
    assert verdict.error == (
        "ConnectionResetError: [Errno 104] Connection reset by peer; its DataLoader worker (pid 26577) was killed by SIGKILL"
    )
    verdict, where = forensics.refine(verdict, Evidence(pid=1, started=0.0, stderr=stderr), kernel_log=lambda _t: [])
    assert where == (
        "the main process heard of it in rebuild_storage_fd (reductions.py:538), at zoo/modes/loader_worker_kill.py:18 in main"
    )
    assert signed_by_place(verdict, where).signature == "worker_signal"  # as the other repeats'


def _ending(pid: int) -> bool | None:
    """Whether the process is being torn down and is no zombie yet (PF_EXITING in its stat flags); None where it
    is a zombie already (this poll was preempted for the whole teardown, on a loaded box)."""
    fields = rank_report._stat(str(pid))  # the recorder's own reading of /proc
    assert fields is not None
    return None if fields[0] == b"Z" else bool(int(fields[6]) & rank_report._PF_EXITING)


def _killed_while_ending() -> tuple[int, dict] | None:
    """(pid, the recorder's answer) for a child SIGKILLed and read while it is being torn down; None where it
    was a zombie before it was seen ending (then the wait was not exercised: try again)."""
    ready_r, ready_w = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(ready_r)
        kept = b"\1" * (1 << 30)  # every page written: the kernel must free each
        os.write(ready_w, b"x")
        while kept:
            signal.pause()
    os.close(ready_w)
    try:
        assert os.read(ready_r, 1) == b"x"
        os.kill(child, signal.SIGKILL)
        while not (state := _ending(child)):  # until the kernel has begun its exit (the worker's sockets close there)
            if state is None:
                return None
        return child, rank_report.killed_children()
    finally:
        os.close(ready_r)
        os.waitpid(child, 0)


def test_a_child_still_ending_when_the_recorder_reads_is_waited_for():
    # A SIGKILLed worker's sockets close before its exit is done: its main process can learn of it and be
    # exiting while the worker is no zombie yet. A child with 1 GiB of its own takes a while to be torn down;
    # on a loaded box this poll can miss that window, and the child is made again (a fresh try, not a sleep).
    seen = next((r for r in (_killed_while_ending() for _ in range(20)) if r is not None), None)
    assert seen is not None, "20 children were zombies before they were seen ending"
    child, killed = seen
    assert killed == {str(child): "SIGKILL"}


def test_a_child_killed_by_a_signal_is_seen_unreaped_and_left_so():
    child = os.fork()
    if child == 0:
        # a name /proc cuts at 15 bytes in the middle of a character: its stat is no UTF-8 text
        ctypes.CDLL(None).prctl(15, ("a" + "中文中文中").encode(), 0, 0, 0)  # PR_SET_NAME
        os.kill(os.getpid(), signal.SIGKILL)
    try:
        os.waitid(os.P_PID, child, os.WEXITED | os.WNOWAIT)  # until it is a zombie, left unreaped
        assert rank_report.killed_children() == {str(child): "SIGKILL"}
        assert os.waitpid(child, os.WNOHANG)[0] == child  # still ours to reap: reading /proc reaped nothing
    finally:
        try:
            os.waitpid(child, os.WNOHANG)
        except ChildProcessError:
            pass


def test_a_ranks_worker_killed_is_told_from_torchs_later_word_and_never_placed_in_torchrun():
    # alone: rank 1 said only ConnectionResetError; torch's `is killed by signal: Killed.` came after it,
    # unlabelled, from an atexit callback Python ignored
    verdict, where = _rank_worker_segv("torchrun-kill-connection-reset-alone.err")
    assert (verdict.outcome, verdict.signal, verdict.signature, verdict.rank) == (
        Outcome.WORKER_CRASH,
        "SIGKILL",
        "worker_signal",
        1,
    )
    assert where == "the main process heard of it in rebuild_storage_fd (reductions.py:538), at train.py:43 in main"
    # under inject: torch's handler raised inside torch.distributed's excepthook (`Error in sys.excepthook:`,
    # then CPython's `Original exception was:`, both unlabelled); the last traceback with a frame of a file
    # outside site-packages was torchrun's console script, venv/bin/torchrun, never the program's
    verdict, where = _rank_worker_segv("torchrun-kill-excepthook-error-inject.err")
    assert (verdict.outcome, verdict.signal, verdict.signature) == (Outcome.WORKER_CRASH, "SIGKILL", "worker_signal")
    assert where == "the main process heard of it at train.py:43 in main"


def test_a_rank_that_lost_its_worker_is_no_cause_where_another_rank_died_by_its_own_signal():
    # torchrun's words and a rank's traceback as they print them; rank 0 died by SIGSEGV with no dump (no
    # inject), told only in torchrun's report at the end; rank 1's workers went with the launcher's kill
    stderr = (
        "[rank1]: Traceback (most recent call last):\n"
        '[rank1]:   File "/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1291, in '
        "_try_get_data\n"
        '[rank1]:   File "/venv/lib/python3.11/site-packages/torch/multiprocessing/reductions.py", line 538, in '
        "rebuild_storage_fd\n"
        "[rank1]: ConnectionResetError: [Errno 104] Connection reset by peer\n"
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
        "Root Cause (first observed failure):\n[0]:\n  time      : 2026-11-27_16:00:00\n  host      : vm\n"
        "  rank      : 0 (local_rank: 0)\n  exitcode  : -11 (pid: 4242) (SIGSEGV)\n  error_file: <N/A>\n"
        "  traceback : Signal 11 (SIGSEGV) received by PID 4242\n"
    )
    verdict = classify(1, stderr=stderr)
    assert (verdict.outcome, verdict.signal, verdict.rank) == (Outcome.RANK_CRASH, "SIGSEGV", 0)


def test_an_installed_console_script_is_no_frame_of_the_program_and_a_users_own_script_is(tmp_path):
    from crashmatrix.verdict.stacks import Frame, is_own

    (tmp_path / "env" / "bin").mkdir(parents=True)
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (tmp_path / "home" / "bin").mkdir(parents=True)
    assert not is_own(Frame("<module>", str(tmp_path / "env" / "bin" / "torchrun"), "8"))
    assert is_own(Frame("main", str(tmp_path / "home" / "bin" / "train"), "12"))  # ~/bin/train: the user's


# The zoo's torchrun_mismatch under crashmatrix on a lent H200 box (torch 2.11.0+cu130, Python 3.12; gloo on
# CPU): rank 1's C++ terminate line, then torch's own backtrace of every one of its 6 threads (9.7 kB, which
# the CPU box's torch 2.13 does not print), then faulthandler's dump, where Python 3.12 lists gloo's thread
# first as `<no Python frame>`. The row read `killed_by_signal` at `libc.so.6 (pthread_kill+0x11c)`.
def test_an_abort_told_by_terminate_past_torchs_backtrace_of_every_thread():
    with open(os.path.join(_RANK_TEXTS, "..", "h200-torchrun-mismatch", "stderr.log"), encoding="utf-8") as f:
        stderr = f.read().replace("{app}", _APP)
    verdict = classify(1, stderr=stderr)
    assert (verdict.outcome, verdict.signal, verdict.rank) == (Outcome.RANK_CRASH, "SIGABRT", 1)
    assert verdict.signature.startswith("gloo::EnforceNotMet: op.preamble.length <= op.nbytes.")
    assert verdict.signature.endswith("Is there a distributed collective mismatch in your code?")
    _verdict, where = forensics.refine(verdict, Evidence(pid=1, started=0.0, stderr=stderr), kernel_log=lambda _t: [])
    assert where == "libc.so.6 (pthread_kill+0x11c); zoo/ddp.py:53 in class_counts"
