"""What a program prints after its failure is not the failure (issue 52; the twenty-seventh held-out set's
ex_queue_producer_exited and ex_atexit_after_failure were untrue there).

Run alone first (tests/apps/after_the_failure.py, torch 2.13, fork): `case=queue` prints `producer done, exit 0`,
then the main's `q.get()` fails in torch's rebuild_storage_fd with `ConnectionRefusedError: [Errno 111] Connection
refused` at :25 (the producer, whose resource sharer held the tensors' file descriptors, has exited; in a race with
its exit, a CI run's repeat said FileNotFoundError, its socket already gone): exit 1, the program's ordering, no
DataLoader and no worker lost. `case=atexit` raises `TypeError: 'NoneType' object is not
subscriptable` at :38, then Python prints `Exception ignored in atexit callback` and the hook's `KeyError: 'model'`:
exit 1, the TypeError the failure.
"""

import os

import pytest
from conftest import ROOT, crashmatrix, rows_of

APP = os.path.join(ROOT, "tests", "apps", "after_the_failure.py")


@pytest.mark.slow  # two live cells importing torch
def test_a_queues_gone_producer_and_an_atexit_hooks_error_are_not_the_failure(tmp_path):
    (tmp_path / "m.yaml").write_text(f"name: after\ncommand: [python, {APP}]\naxes: {{case: [queue, atexit]}}\n")
    ran = crashmatrix("run", "m.yaml", "--jobs", "2", "--out", "run", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    rows = {r["case"]: r for r in rows_of(tmp_path / "run")}
    queue, hook = rows["queue"], rows["atexit"]
    assert (queue["outcome"], queue["signal"]) == ("fail", ""), queue
    # which of the two the producer's exit leaves is a race: its resource sharer's socket refused, or already gone
    said = queue["signature"].removesuffix(" in tests/apps/after_the_failure.py:<listcomp>")
    gone = (
        "ConnectionRefusedError: [Errno N] Connection refused",
        "FileNotFoundError: [Errno N] No such file or directory",
    )
    assert said in gone, queue
    assert queue["where"].endswith("; tests/apps/after_the_failure.py:25 in <listcomp>"), queue
    assert (hook["outcome"], hook["error"]) == ("fail", "TypeError: 'NoneType' object is not subscriptable"), hook
    assert hook["signature"].startswith("TypeError: 'NoneType' object is not subscriptable in "), hook
    assert hook["where"] == "tests/apps/after_the_failure.py:38 in atexit_after_failure", hook


def test_an_atexit_hooks_error_after_the_failure_is_not_its_error_line():
    # the hundredth held-out set's pil_lazy_nofile, recorded: pillow's open ran out of files in the main; at exit
    # torch._dynamo's hook (`Exception ignored in atexit callback: <function dump_compile_times ...>`) could not
    # import tabulate under the same limit. The row's error was that later line, naming tabulate's file
    from diagnose_agreement import diagnosed

    cell = os.path.join(ROOT, "tests/zoo/recorded/heldout100/app/cells/b302613092-r0")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8") as f:
        assert "tabulate/__init__.py'" in f.read()  # the hook's error is in the log, after the failure's
    got = diagnosed(cell)
    assert got["error"].startswith("OSError: [Errno 24] Too many open files: '") and got["error"].endswith(
        "/images/img0252.png'"
    ), got
    assert got["where"] == "PIL/Image.py:3654 in open; bqrun/data.py:48 in __getitem__", got
