"""A program that reports its failure its own way is judged by the failure, not by its report (the thirty-first
held-out set, HELDOUT31.md: a `sys.excepthook` that prints a shortened report, a log formatter that prefixes
every line of a traceback, stderr sent to the program's own log file).

The truth, from running the program below alone (2026-11-30, Python 3.11.7, torch 2.13.0+cpu):
- `python own_report.py mode=hook`: exit 1; stderr holds only the program's own hook's three lines, in colour:
  `✗ ValueError: ratio must be within [0, 1], got 15.0`, `at own_report.py:33 in check_ratio`, `(traceback
  shortened)`. The failure is check_ratio's raise at :33, called from :52 in main; nothing the program printed
  names a traceback.
- `python own_report.py mode=segv`: exit 1 (8 runs); stdout `FAILED: DataLoader worker (pid N) is killed by
  signal: Segmentation fault.` (6 runs) or `... (pid(s) N) exited unexpectedly` (2 runs: the DataLoader's own
  race, which report it makes depends on where the main waits); stderr holds nothing: the program sent it to
  its log file first, which holds torch's `ERROR: Unexpected segmentation fault encountered in worker.` Worker 1
  read address 0 through ctypes at :25 in __getitem__ (sample 37, after its first batches).
- `python own_report.py mode=caught`: exit 1 (2.1 s); stderr holds one line, `error: training failed
  (RuntimeError); details in /tmp/fit_N/train.log`, the program's own, printed in its except block before its
  sys.exit(1) at :62. The log file holds the traceback: normalized at :52, `torch.nn.LayerNorm(64)` given a
  width of 48, raises in torch/nn/functional.py's layer_norm `RuntimeError: Given normalized_shape=[64], expected
  input with shape [*, 64], but got input of size[8, 48]`: the program's mistake at :52, torch's check doing its
  job.
- `python own_report.py mode=usage`: exit 2; argparse's usage and `own_report.py: error: argument --ratio:
  invalid float value: 'high'`, the program's bad argument at :70, argparse's own sys.exit while it handles its
  ArgumentError.
- `python own_report.py mode=expected`: exit 1; stderr `no batches: bad config`, printed in the except block of
  the StopIteration an empty iterator raised (:75), before sys.exit(1) at :78: the program's own check, the
  StopIteration expected (a review's case).
- `python own_report.py mode=chained`: exit 1; stderr `cannot start: setup failed`, the program's line for the
  RuntimeError setup() raised at :89 `from` load()'s FileNotFoundError (:82); uncaught, Python would print both,
  the RuntimeError last (a review's case: caught, it was told by the FileNotFoundError, uncaught by the
  RuntimeError, two signatures for one failure).
Whichever the loader said, the worker died by SIGSEGV, which its faulthandler dump names. Before these rules a
run said, for the hook, the footer `(traceback shortened)` as its error with no place;
for the worker, under inject, `worker_crash` with no signal, `worker_exited`, no place: torch's backtrace
handler, which inject turns on, waited 2 s for the worker's resource-sharer thread (it blocks every signal),
and faulthandler's dump of the worker went to the program's log file. For the caught error, its one line
was the error, signed by its words and placed at the sys.exit (:62), the LayerNorm not named.
"""

import os
import sys

import pytest
from conftest import ROOT, crashmatrix, rows_of

from crashmatrix.outcome import Outcome
from crashmatrix.verdict.classify import classify
from crashmatrix.verdict.uncaught import SAYS, appended

TORCHRUN = os.path.join(os.path.dirname(sys.executable), "torchrun")  # the console script beside the interpreter
PROGRAM = """\
import ctypes
import os
import sys
import tempfile
import traceback


def short_report(kind, value, tb):
    last = traceback.extract_tb(tb)[-1]
    print(f"\\x1b[31m✗ {kind.__name__}\\x1b[0m: {value}", file=sys.stderr)
    print(f"  at {os.path.basename(last.filename)}:{last.lineno} in {last.name}", file=sys.stderr)
    print("  (traceback shortened)", file=sys.stderr)


def records():
    import torch
    from torch.utils.data import Dataset

    class Records(Dataset):
        def __len__(self):
            return 64

        def __getitem__(self, i):
            if i == 37:
                ctypes.string_at(0)  # a record never filled: its pointer is NULL
            return torch.full((32,), float(i))

    return Records()


def check_ratio(ratio):
    if not 0 <= ratio <= 1:
        raise ValueError(f"ratio must be within [0, 1], got {ratio}")


def read_all():
    from torch.utils.data import DataLoader

    log = open(os.path.join(tempfile.mkdtemp(prefix="segv_run_"), "train.log"), "w")
    os.dup2(log.fileno(), 2)
    try:
        for batch in DataLoader(records(), batch_size=4, num_workers=2):
            batch.sum().item()
    except RuntimeError as e:
        print(f"FAILED: {e} (log: {log.name})", flush=True)
        sys.exit(1)


def normalized(width):
    import torch

    return torch.nn.LayerNorm(64)(torch.zeros(8, width))


def fit():
    try:
        normalized(48)
    except Exception as e:
        with open(os.path.join(tempfile.mkdtemp(prefix="fit_"), "train.log"), "w") as log:
            traceback.print_exc(file=log)
        print(f"error: training failed ({type(e).__name__}); details in {log.name}", file=sys.stderr)
        sys.exit(1)


def options():
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--ratio", type=float)
    return parser.parse_args(["--ratio", "high"])


def batches():
    try:
        return [next(iter([]))]
    except StopIteration:  # expected: an empty loader
        print("no batches: bad config", file=sys.stderr)
        sys.exit(1)


def load():
    raise FileNotFoundError("data/x.bin missing")


def setup():
    try:
        load()
    except FileNotFoundError as e:
        raise RuntimeError("setup failed") from e


def start():
    try:
        setup()
    except RuntimeError as e:
        print(f"cannot start: {e}", file=sys.stderr)
        sys.exit(1)


def main(mode):
    if mode == "chained":
        start()
    if mode == "expected":
        batches()
    if mode == "hook":
        sys.excepthook = short_report
        check_ratio(15.0)
    if mode == "caught":
        fit()
    if mode == "usage":
        options()
    read_all()


if __name__ == "__main__":
    main(sys.argv[1].split("=", 1)[1])
"""


@pytest.mark.slow  # real runs under inject, one a DataLoader worker's real segfault
def test_a_failure_reported_the_programs_own_way_is_told_by_the_failure(tmp_path):
    (tmp_path / "own_report.py").write_text(PROGRAM)
    (tmp_path / "m.yaml").write_text(
        "name: own\ncommand: [python, own_report.py]\ninject: true\naxes: {mode: [hook, segv, caught, usage, expected, chained]}\n"
    )
    ran = crashmatrix("run", tmp_path / "m.yaml", "--out", tmp_path / "run", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    rows = {row["mode"]: row for row in rows_of(tmp_path / "run")}

    hook = rows["hook"]
    assert (hook["outcome"], hook["where"]) == ("fail", "own_report.py:33 in check_ratio"), hook
    assert hook["signature"] == "ValueError: ratio must be within […], got N.N in own_report.py:check_ratio"
    cell = tmp_path / "run" / hook["log_dir"]
    assert "Traceback" not in (cell / "stderr.log").read_text()  # the program's words only, as alone
    assert "(traceback shortened)" in (cell / "stderr.log").read_text()
    kept = (cell / "uncaught.txt").read_text()
    assert kept.startswith("Traceback (most recent call last):\n") and kept.endswith("got 15.0\n")
    diagnosed = crashmatrix("diagnose", cell / "stderr.log", cwd=tmp_path)  # the cell's log, as its run read it
    assert "  where:     own_report.py:33 in check_ratio\n" in diagnosed.stdout, diagnosed.stdout

    segv = rows["segv"]
    assert (segv["outcome"], segv["signal"]) == ("worker_crash", "SIGSEGV"), segv
    assert segv["where"] == "own_report.py:25 in __getitem__", segv
    assert segv["signature"] == "worker_signal in own_report.py:__getitem__", segv
    (log,) = (tmp_path / "run" / segv["log_dir"] / "tmp").glob("segv_run_*/train.log")  # in the cell's TMPDIR
    # torch's backtrace of every thread of the worker, none waited for in vain
    assert "signal lost waiting for stacktrace" not in log.read_text()
    assert "ERROR: Unexpected segmentation fault encountered in worker." in log.read_text()

    caught = rows["caught"]  # the exception it caught before its own sys.exit(1), recorded under inject
    assert caught["where"] == "torch/nn/functional.py:2987 in layer_norm; own_report.py:52 in normalized", caught
    assert caught["error"] == (
        "RuntimeError: Given normalized_shape=[64], expected input with shape [*, 64], but got input of size[8, 48]"
    )
    cell = tmp_path / "run" / caught["log_dir"]
    assert (cell / "stderr.log").read_text().startswith("error: training failed (RuntimeError); details in ")
    diagnosed = crashmatrix("diagnose", cell / "stderr.log", cwd=tmp_path)  # with its kept handled.txt
    assert "own_report.py:52 in normalized\n" in diagnosed.stdout, diagnosed.stdout

    usage = rows["usage"]  # argparse's own sys.exit: its words are the failure, not the ArgumentError it handled
    assert usage["error"] == "own_report.py: error: argument --ratio: invalid float value: 'high'", usage
    assert usage["where"].endswith("own_report.py:70 in options"), usage
    assert not (tmp_path / "run" / usage["log_dir"] / "handled.txt").exists()

    expected = rows["expected"]  # a StopIteration it expected, then an exit of its own reason: its words are all
    assert (expected["error"], expected["where"]) == ("no batches: bad config", "own_report.py:78 in batches"), expected
    assert not (tmp_path / "run" / expected["log_dir"] / "handled.txt").exists()

    chained = rows["chained"]  # told as Python would have told it uncaught: the wrapper, raised from the cause
    assert (chained["error"], chained["where"]) == ("RuntimeError: setup failed", "own_report.py:89 in setup"), chained


@pytest.mark.slow  # real torchrun jobs of 2 gloo ranks under inject
def test_a_ranks_failure_it_reported_its_own_way_is_told_by_the_rank(tmp_path):
    # tests/apps/ddp_one_line_hook.py's docstring has the truth: rank 1's KeyError at shard_of, printed by its own
    # hook in one line, or caught and reported before its own sys.exit(3). Before, the run said `exit status 1`
    # (torchrun's report alone) for the hook; for the caught one, `exit status 1` placed in torchrun's own
    # launch_agent, and ISSUE.md addressed torch's code
    app = os.path.join(ROOT, "tests", "apps", "ddp_one_line_hook.py")
    (tmp_path / "m.yaml").write_text(
        f"name: ddp-hook\ncommand: [{TORCHRUN}, --nproc_per_node=2, {app}]\ninject: true\n"
        "axes: {report: [hook, caught]}\n"
    )
    ran = crashmatrix("run", tmp_path / "m.yaml", "--out", tmp_path / "run", "--jobs", "2", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    rows = {row["report"]: row for row in rows_of(tmp_path / "run")}
    assert set(rows) == {"hook", "caught"}, rows
    for row in rows.values():
        assert (row["outcome"], row["rank"], row["error"]) == ("fail", "1", "KeyError: 1"), row
        assert row["where"] == "tests/apps/ddp_one_line_hook.py:20 in shard_of", row
    caught = tmp_path / "run" / rows["caught"]["log_dir"]
    assert (caught / "handled-rank1.txt").is_file()  # kept, so that the cell's log is read as the run read it
    told = crashmatrix("diagnose", caught / "stderr.log", cwd=tmp_path)
    assert "fail (rank 1 failed first)\n  error:     KeyError: 1\n" in told.stdout, told.stdout
    assert "  where:     tests/apps/ddp_one_line_hook.py:20 in shard_of\n" in told.stdout, told.stdout


RECORDED = """\
Traceback (most recent call last):
  File "/app/own_report.py", line 52, in main
    check_ratio(15.0)
  File "/app/own_report.py", line 33, in check_ratio
    raise ValueError(f"ratio must be within [0, 1], got {ratio}")
ValueError: ratio must be within [0, 1], got 15.0
"""


def test_the_recorded_exception_is_read_only_where_the_program_did_not_print_it():
    short = "\x1b[31m✗ ValueError\x1b[0m: ratio must be within [0, 1], got 15.0\n  (traceback shortened)\n"
    assert appended(short, RECORDED) == f"{short}{SAYS}\n{RECORDED}"
    assert appended(RECORDED, RECORDED) == RECORDED  # Python's own hook printed it
    # the default hook's head glued to a progress bar's line, as tqdm leaves it
    glued = "epoch 0:   4%|▍         | 4/100\r" + RECORDED
    assert appended(glued, RECORDED) == glued
    # a hook that printed it to stdout
    assert appended(short, RECORDED, also_printed=RECORDED) == short


# The segv mode's cell in the runs where its main said `exited unexpectedly` (2 of 8 alone, the loader's race):
# stdout has the program's summary, stderr the worker's faulthandler dump, kept there under inject.
WORKER_DUMP = """\
Fatal Python error: Segmentation fault

Current thread 0x00007f1522ab8b80 (most recent call first):
  File "/usr/lib/python3.11/ctypes/__init__.py", line 519 in string_at
  File "/app/own_report.py", line 25 in __getitem__
  File "/venv/torch/utils/data/_utils/fetch.py", line 54 in fetch
  File "/venv/torch/utils/data/_utils/worker.py", line 374 in _worker_loop
  File "/usr/lib/python3.11/multiprocessing/process.py", line 108 in run
  File "/usr/lib/python3.11/multiprocessing/process.py", line 314 in _bootstrap
  File "/usr/lib/python3.11/multiprocessing/popen_fork.py", line 71 in _launch
  File "/app/own_report.py", line 42 in read_all
"""


def test_a_worker_the_loader_says_exited_unexpectedly_died_by_the_signal_its_dump_names():
    said = "FAILED: DataLoader worker (pid(s) 3037) exited unexpectedly (log: /tmp/segv_run_4e/train.log)\n"
    verdict = classify(1, stderr=WORKER_DUMP, stdout=said)
    assert (verdict.outcome, verdict.signal, verdict.signature) == (Outcome.WORKER_CRASH, "SIGSEGV", "worker_signal")
    assert verdict.error.startswith("Fatal Python error: Segmentation fault in a DataLoader worker; FAILED: DataLoader")
    assert classify(1, stderr="", stdout=said).signature == "worker_exited"  # no dump: no signal to tell


def test_a_torchrun_rank_that_ended_itself_with_a_status_is_told_by_it_not_by_torchruns_raise():
    # tests/data/rank-own-exit/README.md has the truth: rank 1's sys.exit(3), told only by torchrun's report. Before,
    # the log read `exit status 1` at torchrun's own launch_agent, and whose fix it is, torch's refusal
    from crashmatrix.resolve.diagnose import diagnose
    from crashmatrix.resolve.log_text import read_logs

    log = os.path.join(ROOT, "tests", "data", "rank-own-exit", "torchrun-caught-exit3-alone.err")
    found = diagnose(read_logs([log]))
    assert (found.row["outcome"], found.row["rank"]) == ("fail", "1"), found.row
    assert found.row["error"] == "rank 1 exited with exit code 3", found.row
    assert found.row["where"] == "", found.row  # no frame of the rank's own in the log: none named
    assert "torch" not in found.whose, found.whose


def test_an_iterators_end_the_program_caught_is_no_failure_it_reported():
    # a review's torchrun program, run alone: rank 1 catches the StopIteration of an empty iterator, logs
    # `StopIteration: end of epoch 0`, then prints `loss diverged (nan)` and calls sys.exit(4) in that except block.
    # The StopIteration was the verdict (named by the log line); it is the loop's control, not the failure
    from crashmatrix.verdict.uncaught import named

    caught = (
        'Traceback (most recent call last):\n  File "/app/tr.py", line 32, in <module>\n    next(it)\nStopIteration\n'
    )
    assert not named(caught, "[rank 1] StopIteration: end of epoch 0\nloss diverged (nan)\n")
    assert named(caught.replace("StopIteration\n", "KeyError: 'shard_7'\n"), "failed: KeyError: 'shard_7'\n")


def test_a_printed_exception_with_pythons_suggestion_is_the_recorded_one():
    # the sixty-third set's pf_ddp_rank0_profile_table: Python's hook printed `... no attribute 'gpu_time_total'.
    # Did you mean: 'cpu_time_total'?`, the in-cell record (traceback's text) the line without it; the printed
    # traceback is the failure's, and the record is not read after it as if the program had printed another
    from crashmatrix.verdict.uncaught import appended

    printed = (
        'Traceback (most recent call last):\n  File "/app/run.py", line 9, in run\n    t.gpu_time_total\n'
        "AttributeError: 'FunctionEventAvg' object has no attribute 'gpu_time_total'. Did you mean: 'cpu_time_total'?\n"
    )
    recorded = printed.replace(". Did you mean: 'cpu_time_total'?", "")
    assert appended(printed, recorded) == printed
