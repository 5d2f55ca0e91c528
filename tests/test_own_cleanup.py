"""The program's own cleanup failing as its first error unwinds is told after that first error, which is the failure
(runner/verdict/own_cleanup.py). Each case is a real program's output: two held-out sets' recorded runs, and small
programs run here (no torch) for the forms the rule must leave alone: an `except` body's own error, a `raise` in a
`finally:`."""

import os
import subprocess
import sys

import pytest
from conftest import ROOT
from diagnose_agreement import _checkout_paths

from crashmatrix.verdict.classify import classify
from crashmatrix.verdict.exception_place import exception_place


def _recorded(*parts: str) -> str:
    with open(os.path.join(ROOT, "tests", "zoo", "recorded", *parts, "stderr.log"), encoding="utf-8") as f:
        return _checkout_paths(f.read())


def test_a_with_blocks_exit_failing_on_the_first_error_is_told_after_it():
    # the eighty-seventh held-out set's gc_exit_report_masks (run alone: the same, 3 of 3): a step's one_hot of label 3
    # with 3 classes fails at :31; its FailureReport.__exit__ (:27) then fails on json.dumps of a datetime. The row
    # said the TypeError and placed it in json's encoder.
    stderr = _recorded("heldout87", "single", "cells", "7b2f114c1f-r0")
    told = classify(1, stderr=stderr)
    assert told.error == (
        "RuntimeError: Class values must be smaller than num_classes.; then, in the program's cleanup as it "
        "unwound: TypeError: Object of type datetime is not JSON serializable"
    )
    assert exception_place(stderr, error=told.error).endswith("zoo/modes/gc_exit_report_masks.py:31 in step")


def test_a_finally_that_fails_closing_what_never_opened_is_told_after_the_first_error():
    # the eighty-first held-out set's sd_finally_close_hides (run alone: the same): a shape error at :14 in epoch;
    # the `finally:` at :24 calls close() on a writer that was never opened (AttributeError on None)
    stderr = _recorded("heldout81", "single", "cells", "25714f0fd5-r0")
    told = classify(1, stderr=stderr)
    assert told.error.startswith("RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x10 and 12x16); then, in")
    assert exception_place(stderr, error=told.error).endswith("zoo/modes/sd_finally_close_hides.py:14 in epoch")


def test_a_finalizer_that_failed_and_was_ignored_before_the_mains_error_is_told_first():
    # the eighty-seventh held-out set's gc_finalizer_order_index (run alone: the same, 3 of 3): the index writer's
    # weakref.finalize callback (:15 in _publish) finds its scratch folder removed by a TemporaryDirectory's
    # finalizer, which ran first; Python prints `Exception ignored in: <finalize object ...; dead>` and its
    # FileNotFoundError, and goes on; the main's lookup of the index it never published raises KeyError: 'train'.
    stderr = _recorded("heldout87", "single", "cells", "be1edf8e83-r0")
    told = classify(1, stderr=stderr)
    assert told.error.startswith("FileNotFoundError: [Errno 2] No such file or directory: "), told
    assert told.error.endswith(
        "; in a finalizer, which Python ignored, first: the main then failed with KeyError: 'train'"
    )
    assert exception_place(stderr, error=told.error) == "zoo/modes/gc_finalizer_order_index.py:15 in _publish"


EXCEPT_FALLBACK = """\
import json
def load(path):
    try:
        return open(path).read()
    except FileNotFoundError:
        return json.loads("{bad")  # the fallback fails too: the program's own report of the case it expected
load("/nonexistent/config.json")
"""
RAISE_IN_FINALLY = """\
def run():
    ok = False
    try:
        {}["steps"]
    finally:
        if not ok:
            raise RuntimeError("run aborted")  # a choice: the program reports its error as this one
run()
"""


@pytest.mark.parametrize(
    ("program", "told"),
    [(EXCEPT_FALLBACK, "json.decoder.JSONDecodeError: Expecting property name"), (RAISE_IN_FINALLY, "RuntimeError")],
)
def test_an_except_bodys_error_and_a_raise_in_a_finally_stay_the_failure(tmp_path, program, told):
    (tmp_path / "prog.py").write_text(program)
    done = subprocess.run([sys.executable, "prog.py"], cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert "During handling of the above exception" in done.stderr, done.stderr
    assert classify(done.returncode, stderr=done.stderr).error.startswith(told), done.stderr


APPS = os.path.join(ROOT, "tests", "apps", "own_cleanup")


@pytest.mark.parametrize(
    ("app", "told", "place"),
    [
        # an `except StopIteration:` body closes the writer, whose close() fails: the close's error, not the loop's end
        (
            "stopiter_close.py",
            "FileNotFoundError: [Errno 2] No such file or directory: ",
            "stopiter_close.py:28 in close",
        ),
        # sys.exit(0) at the target loss inside a `with` whose __exit__ fails: the __exit__'s error
        (
            "sysexit_exit.py",
            "TypeError: Object of type datetime is not JSON serializable",
            "sysexit_exit.py:21 in __exit__",
        ),
        # a __del__'s AttributeError after an __init__ that failed and was handled: noise, not the later ValueError's cause
        ("del_noise.py", "ValueError: row of 2 values, expected 3", "del_noise.py:26 in collate"),
        # an `except FileNotFoundError:` fallback whose own `finally:` fails: the fallback's error, not the handled one
        (
            "fallback_finally.py",
            "FileNotFoundError: [Errno 2] No such file or directory: ",
            "fallback_finally.py:25 in build_from_csv",
        ),
    ],
)
def test_what_a_handler_or_a_purposeful_end_was_followed_by_stays_the_failure(tmp_path, app, told, place):
    # a review's programs against the rule (2026-12-01), each run alone here: the failure a user meets is the last
    # one Python printed, the earlier exception handled, or an end the program chose, or unrelated noise
    done = subprocess.run(
        [sys.executable, os.path.join(APPS, app)], cwd=tmp_path, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 1, done.stderr
    verdict = classify(done.returncode, stderr=done.stderr)
    assert verdict.error.startswith(told) and "first:" not in verdict.error and "then, in" not in verdict.error, verdict
    assert exception_place(done.stderr, error=verdict.error).endswith(place), done.stderr


def test_a_pool_childs_finally_failing_is_told_after_its_first_error(tmp_path):
    # run alone (3 of 3 the same): shard 1's record None fails `.split()` at :12 in the pool's child; the child's
    # `finally:` then closes a file it never opened (:17); Pool.map re-raises the close's AttributeError in the main,
    # the child's chain quoted above it. The row told the close, placed at the split.
    done = subprocess.run(
        [sys.executable, os.path.join(APPS, "pool_finally.py")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1 and "RemoteTraceback" in done.stderr, done.stderr
    verdict = classify(done.returncode, stderr=done.stderr)
    assert verdict.error == (
        "AttributeError: 'NoneType' object has no attribute 'split'; then, in the program's cleanup as it unwound: "
        "AttributeError: 'NoneType' object has no attribute 'close'"
    ), verdict
    assert verdict.signature.startswith("AttributeError: 'NoneType' object has no attribute 'split'"), verdict
    assert exception_place(done.stderr, error=verdict.error).endswith("pool_finally.py:12 in <listcomp>")
