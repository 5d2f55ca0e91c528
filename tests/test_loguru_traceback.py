"""A traceback loguru printed (`@logger.catch`, `logger.exception`) is read as Python prints one: the frame it
marks with `> File`, the values it writes under each frame's code, its blank lines (verdict/loguru_traceback.py).
Pure: recorded text in, verdict out.

The texts in tests/data/loguru/ are loguru 0.7.3's own (a venv of its own, 2026-11-30, Python 3.11.7), from two
programs run alone, each `@logger.catch(onerror=lambda _: sys.exit(1))` on main, exit 1, loguru's report alone:
- json-decode.err (`diagnose=True`, loguru's default: values under the code, blank lines between frames):
  load_labels' `json.loads(text)` at train.py:11 raises `json.decoder.JSONDecodeError: Expecting property name
  enclosed in double quotes: line 1 column 2 (char 1)` in json/decoder.py:353 raw_decode; main at :16, called at
  :20 (the frame loguru marks).
- chained.err (`diagnose=False`): read_lr's float() at chained.py:15 raises ValueError, and read_lr raises its own
  ConfigError `from` it at :17, called from main at :22.
"""

import os

import pytest
from conftest import ROOT

from crashmatrix.outcome import Outcome
from crashmatrix.verdict.classify import classify
from crashmatrix.verdict.exception_place import exception_place
from crashmatrix.verdict.loguru_traceback import unmarked
from crashmatrix.verdict.parsed import read_output

DATA = os.path.join(ROOT, "tests", "data", "loguru")


def _text(name: str) -> str:
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return f.read()


def test_a_marked_and_annotated_traceback_is_told_by_its_exception_and_the_programs_line():
    text = _text("json-decode.err")
    verdict = classify(1, stderr=text)
    assert verdict.outcome is Outcome.FAIL
    assert verdict.error == (
        "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
    )
    assert exception_place(text) == "json/decoder.py:353 in raw_decode; train.py:11 in load_labels"
    last = read_output(text).last_traceback()
    assert last is not None and [c.function for c in last.calls][:3] == ["<module>", "main", "load_labels"]
    assert last.calls[2].code == "return json.loads(text)"  # not the values loguru wrote under it


def test_a_chain_loguru_marked_keeps_its_chain():
    last = read_output(_text("chained.err")).last_traceback()
    assert last is not None and last.chained
    assert last.exception == "ConfigError: bad learning rate in config: '1e-3x'"
    assert [(c.lineno, c.function) for c in last.calls] == [("25", "<module>"), ("22", "main"), ("17", "read_lr")]


@pytest.mark.parametrize(
    "text",
    [
        'Traceback (most recent call last):\n  File "/app/a.py", line 3, in f\n    g()\nValueError: x\n',
        "> File a quoted line of a program's own\n",
    ],
    ids=["plain", "quoted"],
)
def test_what_loguru_did_not_mark_is_left_as_printed(text):
    assert unmarked(text) == text
