"""A traceback rich printed in its box (`rich.traceback.install()`) is read as Python prints one: its exception,
its place, its chain (verdict/rich_traceback.py). Pure: recorded text in, verdict out.

The texts in tests/data/rich/ are rich 15.0.0's own (a venv of its own, 2026-11-30, Python 3.11.7, stderr a file,
so 80 columns and no colour), from two programs run alone, each exit 1:
- json-decode.err: train.py installs rich's hook; main() at :13 calls load_labels, whose `json.loads(text)` at :9
  raises `json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char
  1)` in json/decoder.py:353 raw_decode; rich prints the type without its module and folds the message at the
  box's width, and folds the frame head `.../json/decoder.py:353 in` / `raw_decode`.
- chained.err: a module under a long path (rich folds the path itself across two lines): read_lr's float() at
  :12 raises ValueError, and read_lr raises its own ConfigError `from` it at :14, called from main at :18.
And three from a review's program, r1.py (a helper who did not write these rules, rich 15.0.0 again):
- handled-then-fails.err: `console.print_exception()` of a handled JSONDecodeError, `continuing`, then the
  uncaught `KeyError: 'real failure later'` at r1.py:22, printed by Python's own hook: the failure.
- syntax.err: rich's hook, `exec(compile("x = (", "/app/cfg.py", "exec"))` at r1.py:43; rich prints the offending
  line and a caret in an untitled box of its own, then `SyntaxError: '(' was never closed`.
- printed-after.err: rich's hook on a JSONDecodeError at r1.py:10, then an atexit line of the program's,
  `wandb: Waiting for W&B process to finish... (failed 1).`, right under the message.
And torchrun-rank1.err: `torchrun --nproc_per_node=2 train.py` (torch 2.13.0+cpu, 2 gloo ranks, rich 15.0.0 on the
path), each rank installing rich's hook; rank 1 looks its shard size up in a dict that has rank 0's only
(`KeyError: 1` at train.py:10 in shard_of, from main at :17), and torchrun labels its box `[rank1]: `.
"""

import os

import pytest
from conftest import ROOT

from crashmatrix.outcome import Outcome
from crashmatrix.verdict.classify import classify
from crashmatrix.verdict.exception_place import exception_place
from crashmatrix.verdict.parsed import read_output
from crashmatrix.verdict.rich_traceback import unrich

DATA = os.path.join(ROOT, "tests", "data", "rich")


def _text(name: str) -> str:
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return f.read()


def test_a_boxed_traceback_is_told_by_its_exception_and_the_programs_line():
    text = _text("json-decode.err")
    verdict = classify(1, stderr=text)
    assert verdict.outcome is Outcome.FAIL
    assert verdict.error == (
        "JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
    )
    assert exception_place(text) == "json/decoder.py:353 in raw_decode; train.py:9 in load_labels"


def test_a_chain_of_boxes_keeps_its_chain_and_a_folded_path_is_joined():
    last = read_output(_text("chained.err")).last_traceback()
    assert last is not None and last.chained
    assert last.exception == "ConfigError: bad learning rate in config: '1e-3x'"
    assert [(c.lineno, c.function) for c in last.calls] == [("21", "<module>"), ("18", "main"), ("14", "read_lr")]
    assert last.calls[-1].path == (
        "/tmp/richapp/a_really_long_folder_name_for_the_project/with_more_nesting_inside/chained_training_module.py"
    )


@pytest.mark.parametrize(
    "text",
    [
        "epoch 1 done\n╭──── loss ────╮\n│ 0.25 │\n╰──────────────╯\n",  # a box of the program's own
        'Traceback (most recent call last):\n  File "/app/a.py", line 3, in f\nValueError: x\n',
    ],
    ids=["other-box", "plain"],
)
def test_what_is_no_rich_traceback_is_left_as_printed(text):
    assert unrich(text) == text


def test_what_the_program_printed_after_a_box_is_not_its_message():
    handled = classify(1, stderr=_text("handled-then-fails.err"))
    assert handled.error == "KeyError: 'real failure later'"
    assert exception_place(_text("handled-then-fails.err")) == "r1.py:22 in <module>"
    after = classify(1, stderr=_text("printed-after.err"))
    assert after.error == "JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"


def test_a_syntax_errors_code_box_is_no_part_of_its_message():
    assert classify(1, stderr=_text("syntax.err")).error == "SyntaxError: '(' was never closed"


def test_a_ranks_box_under_torchruns_labels_is_that_ranks_failure():
    verdict = classify(1, stderr=_text("torchrun-rank1.err"))
    assert (verdict.outcome, verdict.rank, verdict.error) == (Outcome.FAIL, 1, "KeyError: 1")
    assert verdict.told.endswith("line 10, in shard_of\n    return sizes[rank]\nKeyError: 1")
