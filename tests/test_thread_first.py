"""A thread's uncaught exception is the failure; the main's later error on what the thread never delivered is its
consequence (issue 52, item 3), as a rank before its peers and a worker before the main that reports it.

The truth, from running tests/apps/thread_first/prefetch.py alone (python 3.11): exit 1. Python's
threading.excepthook prints `Exception in thread Thread-1 (prefetch):` and the thread's traceback, ending at
prefetch.py:11 in prefetch with `ZeroDivisionError: division by zero` (an empty shard); the program goes on,
and the main fails at prefetch.py:19 in main with `KeyError: 'mean'`, the value the thread never wrote. The
KeyError is what a user sees last, and the wrong lead.
"""

import json
import os

import pytest
from conftest import ROOT, crashmatrix, rows_of

pytestmark = pytest.mark.slow  # real runs, alone and under inject, resolved

APP = os.path.join(ROOT, "tests", "apps", "thread_first", "prefetch.py")

MATRIX = """\
name: thread-first
command: [python, {app}]
inject: {inject}
axes:
  shard: [empty]
timeout: 60
"""


@pytest.fixture(scope="module", params=[False, True], ids=["alone", "inject"])
def run(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("thread-first")
    (tmp / "m.yaml").write_text(MATRIX.format(app=APP, inject=str(request.param).lower()))
    ran = crashmatrix("run", "m.yaml", "--out", tmp / "run", cwd=tmp)
    assert ran.returncode == 0, ran.stderr
    return tmp / "run"


def test_the_threads_exception_is_the_verdict_and_the_mains_its_consequence(run):
    (row,) = rows_of(run)
    assert (row["outcome"], row["exit_code"]) == ("fail", "1")
    assert row["error"] == (
        "ZeroDivisionError: division by zero; in thread Thread-1 (prefetch), first: the main then failed with "
        "KeyError: 'mean'"
    )
    assert row["signature"] == "ZeroDivisionError: division by zero in tests/apps/thread_first/prefetch.py:prefetch"
    assert row["where"] == "tests/apps/thread_first/prefetch.py:11 in prefetch"


def test_the_bug_report_is_the_threads(run):
    resolved = crashmatrix("resolve", run, cwd=run)
    assert resolved.returncode == 0, resolved.stderr
    with open(run / "resolution.json") as f:
        (bundle,) = json.load(f)["repro"]
    issue = (run / bundle["dir"] / "ISSUE.md").read_text()
    assert issue.startswith("# fail: ZeroDivisionError: division by zero; in thread Thread-1 (prefetch), first")
    assert "## Where\n\ntests/apps/thread_first/prefetch.py:11 in prefetch\n" in issue
    # the program's own arithmetic
    assert "The program's to fix: the error was raised at its own line tests/apps/thread_first/prefetch.py:11" in issue


# The twenty-ninth held-out set's rl_thread_final_observation, a live repeat's stderr (shortened): two actor threads
# die of one KeyError at once and their reports interleave; the main then times out on the queue they never fed.
TWO_THREADS_INTERLEAVED = """\
Exception in thread actor-1:
Traceback (most recent call last):
  File "/usr/lib/python3.11/threading.py", line 1045, in _bootstrap_inner
Exception in thread actor-0:
Traceback (most recent call last):
  File "/usr/lib/python3.11/threading.py", line 1045, in _bootstrap_inner
    self.run()
  File "/app/rl.py", line 28, in actor
    next_obs = info["terminal_observation"] if truncated else obs
KeyError: 'terminal_observation'
    self.run()
  File "/app/rl.py", line 28, in actor
    next_obs = info["terminal_observation"] if truncated else obs
KeyError: 'terminal_observation'
Traceback (most recent call last):
  File "/app/rl.py", line 38, in main
    idx, obs, rew = q.get(timeout=3)
  File "/usr/lib/python3.11/queue.py", line 179, in get
    raise Empty
_queue.Empty
"""


def test_two_threads_that_died_at_once_are_still_the_first_failure():
    from crashmatrix.verdict.classify import classify

    verdict = classify(1, stderr=TWO_THREADS_INTERLEAVED)
    assert verdict.error.startswith("KeyError: 'terminal_observation'; in thread actor-1, first"), verdict


def test_two_threads_whose_headers_interleave_within_a_line_are_still_the_first_failure():
    # another live repeat of the same mode: the two headers interleaved character by character, leaving a lone `:`
    garbled = TWO_THREADS_INTERLEAVED.replace(
        "Exception in thread actor-1:\n", "Exception in thread Exception in thread actor-0actor-1:\n", 1
    ).replace("Exception in thread actor-0:\n", ":\n", 1)
    from crashmatrix.verdict.classify import classify

    verdict = classify(1, stderr=garbled)
    assert verdict.error.startswith("KeyError: 'terminal_observation'; in thread "), verdict
