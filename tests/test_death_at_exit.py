"""A death by signal after the program's end (a native library's cleanup at exit) is told from one mid-run.

The program, tests/apps/exit_cleanup (a pyproject.toml root, a package), run alone first:
- `python train.py case=at_exit` prints `trained: 3`, then exit() runs C's exit handlers after Python's
  finalisation, and the one the program's native code left (strlen(NULL), as a C++ destructor faults) kills it by
  SIGSEGV (exit status 139; the kernel's log, where it is readable and not rate-limited: `segfault at 0 ... in
  libc.so.6`). Nothing else is printed: faulthandler is off by then, no Python frame is left.
- `python train.py case=mid_run` dies by SIGSEGV in the same libc function at step 1, before `trained:`.
- `python train.py case=raise_then_exit` raises `ValueError: loss is nan at step 2` at train.py:24 (its traceback
  printed), then dies by SIGSEGV at exit in the same cleanup: exit status 139, where the error alone gives 1.
- `python train.py case=report_then_exit`: the same ValueError, caught in run() and reported as Hydra's
  run_and_report does (traceback.print_exc(), then sys.exit(1)); the same death at exit, 139.
- `python train.py case=usage_caught_then_exit`: argparse prints `train.py: error: argument --steps: invalid int
  value: 'three'` and calls sys.exit(2), which the program catches; it prints `bad --steps: training with the
  defaults`, `trained: 3`, ends, and dies by SIGSEGV at exit: 139. Its own code had finished without failing.
- `torchrun --nproc_per_node=2 ddp_train.py`: both ranks print their all_reduce; rank 1 then dies by SIGSEGV at
  exit; torchrun's Root Cause is rank 1, `exitcode: -11 (SIGSEGV)`, and its own exit status is 1.
- `python torch_cache.py` (torch imported, a daemon thread alive) prints its sum, then a `__del__` faults as Python
  tears the module's globals down: SIGSEGV (139), nothing else printed.
The truth a maintainer of the library would want: the at-exit deaths happened after the program's code had
finished, in native cleanup, which no stack names here; the mid-run one is at the program's line that called it.
"""

from __future__ import annotations

import os
import shutil
import sys

import pytest
from conftest import ROOT, crashmatrix, rows_of

from crashmatrix.outcome import Outcome
from crashmatrix.resolve.issue import whose_fix
from crashmatrix.verdict import exit_record
from crashmatrix.verdict.classify import Verdict
from crashmatrix.verdict.signature import with_place

APP = os.path.join(ROOT, "tests", "apps", "exit_cleanup")
TORCHRUN = {"PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}  # beside python


def _matrix(tmp_path, name: str, command: str, axes: str) -> str:
    app = tmp_path / "app"
    if not app.exists():
        shutil.copytree(APP, app, ignore=shutil.ignore_patterns("__pycache__"))
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\ncommand: {command}\ncwd: {app}\ninject: true\n{axes}\nrepeats: 1\ntimeout: 120\n")
    return str(path)


@pytest.fixture(scope="module")
def single(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("at_exit")
    matrix = _matrix(
        tmp,
        "exit-cleanup",
        "[python, train.py]",
        "axes:\n  case: [at_exit, mid_run, raise_then_exit, report_then_exit, usage_caught_then_exit]",
    )
    proc = crashmatrix("run", matrix, "--out", tmp / "run", cwd=tmp)
    assert proc.returncode == 0, proc.stderr
    resolved = crashmatrix("resolve", tmp / "run", cwd=tmp)
    assert resolved.returncode == 0, resolved.stderr
    return tmp / "run", {r["case"]: r for r in rows_of(tmp / "run")}


def _issue(run_dir, signature: str) -> str:
    """The ISSUE.md resolve wrote for the kind of this signature (its classification line names it)."""
    for folder in sorted(os.listdir(os.path.join(run_dir, "repro"))):
        with open(os.path.join(run_dir, "repro", folder, "ISSUE.md"), encoding="utf-8") as f:
            text = f.read()
        if f"signature `{signature}`" in text:
            return text
    raise AssertionError(f"no ISSUE.md for {signature}")


@pytest.mark.slow
def test_a_death_in_native_cleanup_at_exit_is_placed_and_signed_at_exit(single):
    run_dir, rows = single
    at_exit = rows["at_exit"]
    assert (at_exit["outcome"], at_exit["signal"], at_exit["error"]) == (
        "crash",
        "SIGSEGV",
        "killed by SIGSEGV at exit",
    )
    # the kernel's line (`libc.so.6 (+0x...)`) leads where the kernel wrote one and it could be read
    assert at_exit["where"] == "at exit" or at_exit["where"].startswith("libc.so.6 (+0x"), at_exit
    assert at_exit["where"].endswith("at exit") and at_exit["signature"] == "killed_by_signal at exit", at_exit
    issue = _issue(run_dir, at_exit["signature"])
    assert "It died at exit: after the program's main code had finished" in issue
    whose = issue.split("\n\n", 2)[1]  # the addressee, under the title
    assert whose.startswith("No stack names the library") and "a profiler started and never stopped" in whose, whose
    assert "tracker" in whose and "PyTorch" not in whose and "program's own code" not in whose, whose


@pytest.mark.slow
def test_the_same_death_mid_run_is_at_the_programs_line_not_at_exit(single):
    _run_dir, rows = single
    mid_run = rows["mid_run"]
    assert (mid_run["outcome"], mid_run["signal"]) == ("crash", "SIGSEGV"), mid_run
    assert "at exit" not in mid_run["where"] and "at exit" not in mid_run["signature"], mid_run
    # faulthandler's stack: the program's own package's frame, from the app's root
    assert mid_run["where"].endswith("cleanup/native.py:17 in fault_now"), mid_run
    assert mid_run["signature"] != rows["at_exit"]["signature"]


@pytest.mark.slow
def test_the_programs_own_error_before_a_death_at_exit_is_the_failure(single):
    # a review's finding: the program's ValueError was hidden behind `killed_by_signal at exit`, and its report
    # sent the user to a library's tracker
    run_dir, rows = single
    row = rows["raise_then_exit"]
    # a signal ended it, not an exit (DESIGN.md's outcome words): crash, its signal, and its own error first
    assert (row["outcome"], row["signal"], row["exit_code"]) == ("crash", "SIGSEGV", ""), row
    assert row["error"] == "ValueError: loss is nan at step 2; then killed by SIGSEGV at exit", row
    assert (row["signature"], row["where"]) == (
        "ValueError: loss is nan at step N in train.py:train",
        "train.py:24 in train",
    )
    issue = _issue(run_dir, row["signature"])
    assert "was killed by SIGSEGV at exit (so no exit status): its error below is the failure" in issue
    assert "look first at the program's own code" in issue.split("\n\n", 2)[1]


@pytest.mark.slow
def test_an_error_reported_then_exit_1_before_a_death_at_exit_is_the_failure(single):
    # a review's Hydra task raised; Hydra printed its traceback and called sys.exit(1); a native cleanup then faulted
    # at exit: the run said only `killed by SIGSEGV at exit`, diagnose on the same log the ValueError
    _run_dir, rows = single
    row = rows["report_then_exit"]
    assert (row["outcome"], row["signal"]) == ("crash", "SIGSEGV"), row
    assert row["error"] == "ValueError: loss is nan at step 2; then killed by SIGSEGV at exit", row
    assert row["signature"] == rows["raise_then_exit"]["signature"], row
    assert row["where"] == "train.py:24 in train; train.py:31 in run" or row["where"].endswith("train.py:24 in train")


@pytest.mark.slow
def test_a_caught_usage_exit_before_a_death_at_exit_is_no_failure_of_its_own(single):
    # argparse's exit(2) was caught and the program trained on: its own code ended well, the fault at exit is all
    _run_dir, rows = single
    row = rows["usage_caught_then_exit"]
    assert (row["outcome"], row["signal"], row["error"]) == ("crash", "SIGSEGV", "killed by SIGSEGV at exit"), row
    assert row["signature"] == "killed_by_signal at exit", row


@pytest.mark.slow
def test_without_inject_an_uncaught_error_printed_last_before_a_silent_death_is_the_failure(tmp_path):
    # a review's program run without inject: its ValueError's traceback, then SIGSEGV at exit (139), no faulthandler
    # dump (off by then); the row said `killed_by_signal` at libc, `diagnose` of the same log the ValueError
    text = _matrix(tmp_path, "plain", "[python, train.py]", "axes:\n  case: [raise_then_exit, at_exit]")
    with open(text, encoding="utf-8") as f:
        plain = f.read().replace("inject: true", "inject: false")
    with open(text, "w", encoding="utf-8") as f:
        f.write(plain)
    proc = crashmatrix("run", text, "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = {r["case"]: r for r in rows_of(tmp_path / "run")}
    raised = rows["raise_then_exit"]
    assert (raised["outcome"], raised["signal"]) == ("crash", "SIGSEGV"), raised
    assert raised["error"] == "ValueError: loss is nan at step 2; then killed by SIGSEGV at exit", raised
    assert raised["signature"] == "ValueError: loss is nan at step N in train.py:train", raised
    # nothing printed before the death: no failure of the program's own to tell, the signal is all
    assert (rows["at_exit"]["outcome"], rows["at_exit"]["error"]) == ("crash", "killed by SIGSEGV"), rows["at_exit"]


@pytest.mark.slow
def test_a_rank_that_dies_at_its_exit_is_that_rank_at_exit(tmp_path):
    matrix = _matrix(
        tmp_path,
        "exit-cleanup-ddp",
        "[torchrun, --nproc_per_node=2, ddp_train.py]",
        "pass_params: none\naxes:\n  ranks: [two]",
    )
    proc = crashmatrix("run", matrix, "--out", tmp_path / "run", cwd=tmp_path, env=TORCHRUN)
    assert proc.returncode == 0, proc.stderr
    (row,) = rows_of(tmp_path / "run")
    assert (row["outcome"], row["signal"], row["rank"]) == ("rank_crash", "SIGSEGV", "1"), row
    assert row["error"] == "rank 1 killed by SIGSEGV at exit", row
    assert row["where"].endswith("at exit") and row["signature"] == "killed_by_signal at exit", row


def test_at_exit_signs_after_what_the_rest_of_the_place_signs():
    assert with_place("killed_by_signal", "at exit") == "killed_by_signal at exit"
    assert with_place("killed_by_signal", "libc.so.6 (+0x167ad8); at exit") == "killed_by_signal at exit"
    named = "libfoo.so (foo::Cache::~Cache()+0x1a); at exit"
    assert with_place("killed_by_signal", named) == "killed_by_signal in libfoo.so:foo::Cache::~Cache at exit"
    # signed once: signing an at-exit signature again leaves it
    assert with_place("killed_by_signal at exit", "at exit") == "killed_by_signal at exit"
    assert with_place("killed_by_signal", "libc.so.6 (+0x167ad8)") == "killed_by_signal"


def test_only_a_death_by_signal_after_the_report_is_at_exit(tmp_path):
    crash = Verdict(Outcome.CRASH, "SIGSEGV", "killed by SIGSEGV", "killed_by_signal")
    assert exit_record.died_at_exit(str(tmp_path), crash, {"metrics": {}})
    # no report: the main process never reached its last exit handler (or ran without the in-cell recorder)
    assert not exit_record.died_at_exit(str(tmp_path), crash, None)
    # Python's own SIGINT after its exit, where a KeyboardInterrupt ended the program (test_keyboard_interrupt.py)
    interrupted = Verdict(Outcome.CRASH, "SIGINT", "KeyboardInterrupt", "KeyboardInterrupt")
    assert not exit_record.died_at_exit(str(tmp_path), interrupted, {"metrics": {}})
    failed = Verdict(Outcome.FAIL, "", "ValueError: x", "ValueError: x")
    assert not exit_record.died_at_exit(str(tmp_path), failed, {"metrics": {}})
    # a rank that died by a signal and never wrote its end
    rank = Verdict(Outcome.RANK_CRASH, "SIGSEGV", "killed by SIGSEGV", "killed_by_signal", rank=1)
    assert not exit_record.died_at_exit(str(tmp_path), rank, {"metrics": {}})
    # a death of no known rank while the main exited by a status of its own: another process's (a review's rank the
    # program forked, dead mid-run by SIGSEGV), not the main's at its exit
    unknown = Verdict(Outcome.RANK_CRASH, "SIGSEGV", "killed by SIGSEGV", "killed_by_signal")
    assert not exit_record.died_at_exit(str(tmp_path), unknown, {"metrics": {}}, returncode=1)
    assert exit_record.died_at_exit(str(tmp_path), unknown, {"metrics": {}}, returncode=-11)
    told, where = exit_record.at_exit(crash, "libc.so.6 (+0x1)")
    assert (told.error, where) == ("killed by SIGSEGV at exit", "libc.so.6 (+0x1); at exit")
    told, where = exit_record.at_exit(rank, "")
    assert (told.error, where) == ("killed by SIGSEGV at exit", "at exit")


class _Kind:
    outcome, signal, signature = "crash", "SIGSEGV", "killed_by_signal at exit"


def test_a_death_at_exit_in_torchs_library_goes_to_pytorch_with_what_was_left_running():
    # the sixty-third held-out set's pf_profiler_never_stopped as the kernel placed it in one repeat of three
    whose, culprit = whose_fix(_Kind(), "", "libtorch_cpu.so (+0x64b1fde); at exit", "killed by SIGSEGV", {})
    assert culprit is not None and culprit.is_torch, whose
    assert whose.startswith("For PyTorch's tracker") and "It died at exit" in whose, whose
    assert "a profiler started and never stopped" in whose


def test_cpps_last_word_before_an_abort_at_exit_is_the_error():
    # a review's std::thread never joined: C++'s runtime says so, then abort() at exit
    abort = Verdict(Outcome.CRASH, "SIGABRT", "killed by SIGABRT", "killed_by_signal")
    told, where = exit_record.at_exit(abort, "", "step 3 done\nterminate called without an active exception\n")
    assert (told.error, where) == ("terminate called without an active exception at exit", "at exit")
    assert exit_record.at_exit(abort, "", "step 3 done\n")[0].error == "killed by SIGABRT at exit"


def test_a_death_at_exit_in_python_code_the_interpreter_ran_is_the_programs_to_look_at():
    # a review's `__del__` that faulted as Python collected garbage at shutdown (faulthandler: `Garbage-collecting`)
    where = "libc.so.6 (+0x167ad8); r1.py:10 in __del__; at exit"
    whose, _culprit = whose_fix(_Kind(), "", where, "Fatal Python error: Segmentation fault", {})
    assert whose.startswith("The program's to look at first: the process died by SIGSEGV at exit, in r1.py:10 in")
    # an abort at exit with no stack: no kernel line to look for
    abort = type("K", (), {"outcome": "crash", "signal": "SIGABRT", "signature": "killed_by_signal at exit"})()
    whose, _culprit = whose_fix(abort, "", "at exit", "killed by SIGABRT at exit", {})
    assert "dmesg" not in whose and "core dump" in whose, whose


def test_faulthandlers_dump_of_a_thread_collecting_garbage_keeps_its_frames():
    from crashmatrix.verdict.forensics import own_fault_frame

    stderr = (
        "Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f4d3525db80 (most recent call first):\n"
        '  Garbage-collecting\n  File "/tmp/proj/r1.py", line 10 in __del__\n'
    )
    assert own_fault_frame(stderr).endswith("r1.py:10 in __del__")


@pytest.mark.slow
def test_under_inject_a_death_at_exit_is_the_signal_it_is_alone_without_torchs_backtrace(tmp_path):
    # torch's fatal-signal handler, which crashmatrix turns on, ran at exit as torch was torn down: it printed its
    # backtrace (5 times here) where alone nothing is printed, and in a review's Lightning program asked threads for
    # theirs by a SIGUSR2 whose handler was gone, so the process died by SIGUSR2. Off again once the exit handlers ran
    matrix = _matrix(tmp_path, "torch-cache", "[python, torch_cache.py]", "pass_params: none\naxes:\n  x: [one]")
    proc = crashmatrix("run", matrix, "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (row,) = rows_of(tmp_path / "run")
    assert (row["outcome"], row["signal"]) == ("crash", "SIGSEGV"), row
    assert row["where"].endswith("torch_cache.py:12 in __del__; at exit"), row
    with open(os.path.join(tmp_path, "run", row["log_dir"], "stderr.log"), encoding="utf-8") as f:
        assert "c10::FatalSignalHandler" not in f.read()


def test_the_programs_own_native_library_loaded_at_exit_is_read_from_the_maps(tmp_path):
    # the eighty-first held-out set's c_exit_handler_segv, run alone: its libendring.so, built with gcc into a
    # temporary folder and loaded with ctypes, registered an atexit handler that memsets a buffer it had freed; the
    # kernel names only libc.so.6. The process's maps at its exit (a few of its lines, as Linux writes them):
    from crashmatrix.incell.own_native import own_native_libraries

    venv_lib = os.path.join(sys.prefix, "lib", "python3.11", "site-packages", "torch", "lib", "libtorch_cpu.so")
    own = str(tmp_path / "endkit-6wl4nmbd" / "libendring.so")
    maps = tmp_path / "maps"
    maps.write_text(
        "55d0c0a00000-55d0c0a01000 r--p 00000000 08:01 1 /usr/bin/python3.11\n"
        f"7f1a00000000-7f1a00001000 r-xp 00000000 08:01 2 {venv_lib}\n"
        f"7f1b00000000-7f1b00001000 r-xp 00000000 08:01 3 {own}\n"
        f"7f1b00002000-7f1b00003000 rw-p 00001000 08:01 3 {own}\n"
        "7f1c00000000-7f1c00001000 r-xp 00000000 08:01 4 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
        "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]\n"
        # a review's: torch.compile's kernel built into the cell's tmp, and a package `pip install --target`ed
        f"7f1d00000000-7f1d00001000 r-xp 00000000 08:01 5 {tmp_path}/tmp/torchinductor_root/ck/ckia4.main.so\n"
        f"7f1e00000000-7f1e00001000 r-xp 00000000 08:01 6 {tmp_path}/tgt/fastpkg/libfastpkg.so\n"
    )
    (tmp_path / "tgt" / "fastpkg").mkdir(parents=True)
    (tmp_path / "tgt" / "fastpkg" / "libfastpkg.so").write_bytes(b"")
    (tmp_path / "tgt" / "fastpkg-1.0.dist-info").mkdir()
    assert own_native_libraries(str(maps)) == [own]


def test_a_death_at_exit_in_the_c_library_with_the_programs_native_code_loaded_is_the_programs():
    kind = type("K", (), {"outcome": "crash", "signal": "SIGSEGV", "signature": "killed_by_signal at exit"})()
    native = ["/tmp/run/cells/c42fcda62e-r0/tmp/endkit-6wl4nmbd/libendring.so"]
    whose, culprit = whose_fix(kind, "", "libc.so.6 (+0x16e0ba); at exit", "killed by SIGSEGV at exit", {}, "", native)
    assert culprit is None
    assert whose.startswith("The program's to look at first: the process died by SIGSEGV at exit"), whose
    assert "libendring.so (/tmp/run/cells/c42fcda62e-r0/tmp/endkit-6wl4nmbd)" in whose, whose
    # without it (or with a library's own name from the kernel) the report still names no tracker it cannot tell
    without, _ = whose_fix(kind, "", "libc.so.6 (+0x16e0ba); at exit", "killed by SIGSEGV at exit", {})
    assert without.startswith("No stack names the library but libc.so.6"), without
    # nothing named at all (an abort the program registered with libc's atexit): no C library to blame it through
    unnamed, _ = whose_fix(kind, "", "at exit", "killed by SIGABRT at exit", {}, "", native)
    assert unnamed.startswith("No stack names the library"), unnamed
