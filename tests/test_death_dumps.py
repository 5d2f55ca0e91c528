"""A process ended by a signal that faulthandler does not catch (SIGXCPU, a CPU-time limit): the signal by its
name, and under inject where the process was, from the stacks it wrote as it died (incell/stackdump.py).

The truth, from running tests/apps/cpu_limit.py alone (torch 2.13): `mode=worker` exits 1; the DataLoader
worker, past the 1 s of CPU its worker_init_fn allowed, is ended by SIGXCPU while it spins in the program's
decode() (cpu_limit.py:19-20, reached from decode_all, the loader's collate_fn), printing nothing; the main
process says `RuntimeError: DataLoader worker (pid N) is killed by signal: CPU time limit exceeded.` from torch's
SIGCHLD handler, at its `for batch in DataLoader(...)` (:30). `mode=main` sets the limit in the main process
and dies by SIGXCPU in decode() (status -24), printing nothing at all. `mode=rank` under `torchrun
--nproc_per_node=2` (2.8 s): rank 1 dies by SIGXCPU in decode(), printing nothing; rank 0 has ended; torchrun's
report names rank 1, exitcode -24 (SIGXCPU), as the root cause (the fiftieth held-out set's rx_ddp_rank1_cpu_limit:
the row had no place).
"""

import os
import re
import sys

import pytest
from conftest import ROOT, crashmatrix, rows_of

from crashmatrix.verdict.classify import classify

APP = f"{ROOT}/tests/apps/cpu_limit.py"
DECODE = re.compile(r"^tests/apps/cpu_limit\.py:(?:19|20) in decode$")  # a spinning loop is caught on either line


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The app under inject and without it, both modes, one run each."""
    tmp = tmp_path_factory.mktemp("death-dumps")
    rows = {}
    for inject in ("true", "false"):
        (tmp / f"{inject}.yaml").write_text(
            f"name: cpu-limit\ncommand: [python, {APP}]\ninject: {inject}\naxes:\n  mode: [worker, main]\ntimeout: 120\n"
        )
        ran = crashmatrix("run", f"{inject}.yaml", "--out", tmp / inject, "--jobs", "2", cwd=tmp)
        assert ran.returncode == 0, ran.stderr
        rows[inject] = {r["mode"]: r for r in rows_of(tmp / inject)}
    torchrun = os.path.join(os.path.dirname(sys.executable), "torchrun")
    (tmp / "rank.yaml").write_text(
        f"name: cpu-limit-rank\ncommand: [{torchrun}, --nproc_per_node=2, {APP}]\ninject: true\n"
        "axes:\n  mode: [rank]\ntimeout: 120\n"
    )
    ran = crashmatrix("run", "rank.yaml", "--out", tmp / "rank", cwd=tmp)
    assert ran.returncode == 0, ran.stderr
    rows["true"].update({r["mode"]: r for r in rows_of(tmp / "rank")})
    return rows


@pytest.mark.slow  # real DataLoader workers ended by the kernel's SIGXCPU
def test_a_worker_ended_by_its_cpu_limit_is_placed_where_it_was_under_inject(runs):
    row = runs["true"]["worker"]
    assert (row["outcome"], row["signal"]) == ("worker_crash", "SIGXCPU"), row
    assert DECODE.match(row["where"]), row["where"]
    assert row["signature"] == "worker_signal in tests/apps/cpu_limit.py:decode"


@pytest.mark.slow
def test_without_inject_the_signal_is_named_and_the_place_is_where_the_main_heard(runs):
    row = runs["false"]["worker"]
    assert (row["outcome"], row["signal"]) == ("worker_crash", "SIGXCPU"), row
    # no dump without inject: the main's line whose loop heard of it, said as such, not torch's handler
    assert row["where"].startswith("the main process heard of it"), row["where"]
    assert row["where"].endswith("at tests/apps/cpu_limit.py:30 in main"), row["where"]


@pytest.mark.slow
def test_a_main_process_ended_by_its_cpu_limit_is_a_crash_at_its_frame(runs):
    for inject in ("true", "false"):
        row = runs[inject]["main"]
        assert (row["outcome"], row["signal"]) == ("crash", "SIGXCPU"), row
    assert DECODE.match(runs["true"]["main"]["where"]), runs["true"]["main"]["where"]


@pytest.mark.slow
def test_a_rank_ended_by_its_cpu_limit_is_placed_where_it_was_under_inject(runs):
    row = runs["true"]["rank"]
    assert (row["outcome"], row["signal"], row["rank"]) == ("rank_crash", "SIGXCPU", "1"), row
    assert DECODE.match(row["where"]), row["where"]
    assert row["signature"] == "killed_by_signal in tests/apps/cpu_limit.py:decode"


@pytest.mark.parametrize(
    "words, name",
    [
        ("CPU time limit exceeded", "SIGXCPU"),
        ("File size limit exceeded", "SIGXFSZ"),
        ("Bad system call", "SIGSYS"),
        ("User defined signal 1", "SIGUSR1"),
        ("Alarm clock", "SIGALRM"),
    ],
)
def test_torchs_words_for_a_workers_signal_name_it(words, name):
    # torch's SIGCHLD handler writes the signal's strsignal() text, glibc's words
    stderr = f"RuntimeError: DataLoader worker (pid 8214) is killed by signal: {words}. \n"
    verdict = classify(1, stderr=stderr)
    assert (verdict.outcome.value, verdict.signal) == ("worker_crash", name)


@pytest.mark.parametrize(
    "line, name",
    [
        ("ERROR: Unexpected floating-point exception encountered in worker.", "SIGFPE"),
        ("ERROR: Unexpected segmentation fault encountered in worker.", "SIGSEGV"),
        (
            "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).",
            "SIGBUS",
        ),
    ],
)
def test_a_workers_own_last_words_name_its_signal(line, name):
    # torch's worker handler (torch/csrc/DataLoader.cpp) prints these before it re-raises, the strings as
    # libtorch_python.so holds them; the main's report of the worker may be cut off, or never come
    verdict = classify(1, stderr=line + "\n")
    assert (verdict.outcome.value, verdict.signal) == ("worker_crash", name)


# What torch's SIGCHLD handler raised in the main when a worker was ended at a limit, as the main printed it
# (tests/apps/cpu_limit.py alone; SIGXFSZ's words are glibc's strsignal() of it).
LIMIT_LOG = """\
Traceback (most recent call last):
  File "/home/user/proj/train.py", line 30, in main
    for batch in DataLoader(frames, num_workers=2, collate_fn=decode_all):
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/_utils/signal_handling.py", line 73, in handler
    _error_if_any_worker_fails()
RuntimeError: DataLoader worker (pid 8214) is killed by signal: {words}.
"""


@pytest.mark.parametrize(
    "words, limit",
    [("CPU time limit exceeded", "RLIMIT_CPU: `ulimit -t`"), ("File size limit exceeded", "RLIMIT_FSIZE: `ulimit -f`")],
)
def test_a_process_ended_at_its_limit_is_told_which_limit_and_what_raises_it(tmp_path, words, limit):
    # The place is where the worker was when its limit ran out, not a fault there: the fix is the limit's, told
    # by the signal whatever the signature, and nobody's tracker
    (tmp_path / "job.log").write_text(LIMIT_LOG.format(words=words))
    told = crashmatrix("diagnose", "job.log", cwd=tmp_path)
    assert told.returncode == 0, told.stderr
    (fix,) = [line for line in told.stdout.splitlines() if line.startswith("  fix:")]
    assert limit in fix and "raise the limit" in fix.lower(), fix
    (whose,) = [line for line in told.stdout.splitlines() if line.startswith("  whose:")]
    assert "A failure of a known kind" in whose and "tracker" not in whose, whose


def test_a_process_its_own_alarm_ended_is_placed_where_it_was_under_inject(tmp_path):
    # the twelfth held-out set's w_alarm_watchdog, without torch: SIGALRM with no handler prints nothing, and
    # faulthandler does not catch it; under inject the process dumps its stacks as the alarm ends it
    (tmp_path / "m.yaml").write_text(
        f"name: alarm\ncommand: [python, {ROOT}/tests/apps/alarm_watchdog.py]\ninject: true\npass_params: none\n"
        "axes:\n  num_threads: [1]\ntimeout: 60\n"
    )
    ran = crashmatrix("run", "m.yaml", "--out", "run", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    (row,) = rows_of(tmp_path / "run")
    assert (row["outcome"], row["signal"]) == ("crash", "SIGALRM"), row
    assert row["where"] == "tests/apps/alarm_watchdog.py:13 in upload", row["where"]
    assert row["signature"] == "killed_by_signal in tests/apps/alarm_watchdog.py:upload"


# A log piped into `head`, with SIGPIPE set back to its default by the program (Python ignores it at start): the
# write after head has gone ends the process by SIGPIPE, printing nothing. Run alone (2026-11-30): `python
# pipe.py` printed head's 3 lines and died by SIGPIPE (shell status 141) at pipe.py:7, the flush in log().
PIPE = """\
import signal
import subprocess


def log(sink, step):
    sink.write(f"step {step} loss {1.0 / (step + 1):.4f}\\n".encode())
    sink.flush()


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # as CLI tools do, to end quietly when the reader goes
    head = subprocess.Popen(["head", "-n", "3"], stdin=subprocess.PIPE)
    for step in range(10_000):
        log(head.stdin, step)


if __name__ == "__main__":
    main()
"""


# A SIGTERM handler of the program's, then its default again, then a SIGTERM to itself: registered at start,
# replaced, set back. Run alone (2026-11-30): killed by SIGTERM (shell status 143) at term.py:7, nothing printed.
TERM = """\
import os, signal, time


def stop_dashboard():
    signal.signal(signal.SIGTERM, lambda *_: print("saving"))
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(5)


stop_dashboard()
"""


@pytest.mark.slow  # a live cell each (stdlib, and head)
@pytest.mark.parametrize(
    "name, program, signal, where",
    [("pipe", PIPE, "SIGPIPE", "pipe.py:7 in log"), ("term", TERM, "SIGTERM", "term.py:7 in stop_dashboard")],
)
def test_a_signal_the_program_set_back_to_its_default_is_placed_where_it_ended_under_inject(
    tmp_path, name, program, signal, where
):
    (tmp_path / f"{name}.py").write_text(program)
    (tmp_path / "m.yaml").write_text(
        f"name: {name}\ncommand: [python, {name}.py]\ninject: true\npass_params: none\naxes:\n  x: [1]\ntimeout: 60\n"
    )
    ran = crashmatrix("run", "m.yaml", "--out", "run", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    (row,) = rows_of(tmp_path / "run")
    assert (row["outcome"], row["signal"], row["where"]) == ("crash", signal, where), row
    assert row["signature"] == f"killed_by_signal in {where.split(':')[0]}:{where.rsplit(' in ', 1)[1]}", row
