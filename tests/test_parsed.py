"""A cell's output read once (verdict/parsed.py): the evidence the rules read, from outputs real programs printed.

Every text but CHAINED (CPython's chaining, in its own words) is a recorded one: a thread that died before the main failed on what it never delivered (the
reported zoo's r_thread_prefetch), a DataLoader worker's exception re-raised in the main process (the fault
probe on an H200), torchrun's ranks whose loader lost a worker (tests/data/rank-worker-deaths).
"""

import functools
import glob
import os
import re

import pytest
from conftest import ROOT

from crashmatrix.plain_text import plain
from crashmatrix.verdict import parsed, ranks
from crashmatrix.verdict import signature as sig_
from crashmatrix.verdict.parsed import read_output

THREAD = "tests/zoo/recorded/reported-before/single/cells/bf0d1a398f-r0/stderr.log"
WORKER = "tests/data/h200-faults/cells/db5c7d046e-r0/stderr.log"
RANKS = "tests/data/rank-worker-deaths/torchrun-connection-reset-alone.err"
DUMP = "tests/data/rank-worker-deaths/torchrun-cut-off-under-inject.err"


def _output(path: str) -> parsed.Output:
    with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
        return read_output(plain(f.read()))


def test_a_threads_traceback_is_told_from_the_mains_that_followed():
    out = _output(THREAD)
    assert [t.origin for t in out.tracebacks] == ["thread prefetch", "main"]
    thread, main = out.tracebacks
    assert (thread.type, thread.message) == ("ZeroDivisionError", "float division by zero")
    assert [(c.function, c.lineno) for c in thread.calls][-2:] == [("prefetch", "14"), ("normalise", "9")]
    assert thread.calls[-1].path.endswith("zoo/modes/r_thread_prefetch.py")
    assert main.type == "KeyError"


def test_a_workers_traceback_is_the_workers_own_inside_the_mains():
    out = _output(WORKER)
    assert [t.origin for t in out.tracebacks] == ["main", "worker 0"]
    worker = out.tracebacks[1]
    assert worker.message.startswith("Cannot re-initialize CUDA in forked subprocess")
    assert worker.calls[0].function == "<module>" or worker.calls[0].path.endswith(".py")
    assert out.cause is not None and out.cause.cause.name == "cuda_after_fork"


def test_each_ranks_traceback_by_its_label_and_the_launchers_report_apart():
    out = _output(RANKS)
    by_origin = {t.origin: t for t in out.tracebacks}
    assert by_origin["rank 1"].type == "ConnectionResetError"
    assert by_origin["rank 0"].type == "RuntimeError"
    assert by_origin["rank 1"].calls[-1].function == "_recv"  # the label taken off: its frames read
    assert [t.is_launchers for t in out.tracebacks][-1] is True
    assert "Root Cause (first observed failure):" in out.launcher_reports
    assert out.is_distributed


def test_a_fatal_signals_dump_with_each_threads_stack():
    out = _output(DUMP)
    assert out.dumps[0].line == "Fatal Python error: Segmentation fault"
    assert out.dumps[0].threads and all(t.frames for t in out.dumps[0].threads)
    assert out.died_by == "SIGSEGV"
    assert "ERROR: Unexpected segmentation fault encountered in worker." in out.loader_reports


CHAINED = """\
Traceback (most recent call last):
  File "/app/data.py", line 3, in load
    return json.loads(text)
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/app/data.py", line 5, in load
    raise ValueError(f"bad label file {path}")
ValueError: bad label file labels/7.json
"""


def test_chained_exceptions_are_one_chain_from_the_root_cause():
    out = read_output(CHAINED)
    (chain,) = out.chains
    assert [t.type for t in chain] == ["json.decoder.JSONDecodeError", "ValueError"]
    assert [t.chained for t in chain] == [False, True]
    assert chain[-1].calls[-1] == parsed.Call("/app/data.py", "5", "load", 'raise ValueError(f"bad label file {path}")')


def test_one_text_is_read_once():
    with open(os.path.join(ROOT, THREAD)) as f:
        text = plain(f.read())
    assert read_output(text) is read_output(text)
    assert read_output(text).tracebacks is read_output(text).tracebacks


@functools.lru_cache(maxsize=1)
def _recorded_texts() -> list[str]:
    paths = glob.glob(os.path.join(ROOT, "tests/data/**/*"), recursive=True)
    paths += glob.glob(os.path.join(ROOT, "tests/zoo/recorded/**/stderr.log"), recursive=True)
    texts = []
    for path in sorted(p for p in paths if p.endswith((".log", ".err", ".out", ".txt")) and os.path.isfile(p)):
        with open(path, encoding="utf-8", errors="replace") as f:
            texts.append(ranks.without_role_prefix(plain(f.read())))
    return texts


_PATTERNS = [p for cause in sig_.CAUSES + sig_.ABORT_CAUSES for p in cause.patterns] + [
    parsed.CUDA,
    parsed.PY_EXCEPTION,
    parsed.THREAD_FAILED,
    ranks.COLLECTIVE_TIMEOUT,
]


@pytest.mark.parametrize("pattern", _PATTERNS, ids=lambda p: p.pattern[:40])
def test_a_pattern_skipped_for_want_of_its_words_would_not_have_matched(pattern):
    """could_match says no only where the pattern finds nothing: over every recorded text, and over each
    matching text with its needed words the only thing taken out."""
    needs = sig_.needed_literals(pattern)
    for text in _recorded_texts():
        found = pattern.search(text)
        assert sig_.could_match(pattern, text) or found is None
        if found is not None:
            assert not needs or any(n in found.group(0) for n in needs), (needs, found.group(0))


def test_what_a_pattern_needs_is_read_from_its_parse():
    assert sig_.needed_literals(re.compile(r"^(?:\w+\.)*MemoryError\b")) == ("MemoryError",)
    assert sig_.needed_literals(re.compile(r"CUDA error|AcceleratorError")) == ("CUDA error", "AcceleratorError")
    assert sig_.needed_literals(re.compile(r"(?i)memoryerror")) == ()
    assert sig_.needed_literals(re.compile(r"(?:abc)?\d+")) == ()


# Two fork children of one rank failing at once (the twenty-ninth held-out set's rl_ddp_rank1_env_worker, a
# repeat's stderr, shortened): their headers and frames interleave before either exception line.
INTERLEAVED = """\
Process ForkProcess-1:
Process ForkProcess-2:
Traceback (most recent call last):
Traceback (most recent call last):
  File "/usr/lib/python3.11/multiprocessing/process.py", line 314, in _bootstrap
  File "/usr/lib/python3.11/multiprocessing/process.py", line 314, in _bootstrap
  File "/app/envs.py", line 21, in step
    reward = (1.0 - 0.1 * action) * self.reward_scale
TypeError: can't multiply sequence by non-int of type 'float'
  File "/app/envs.py", line 21, in step
    reward = (1.0 - 0.1 * action) * self.reward_scale
TypeError: can't multiply sequence by non-int of type 'float'
"""


def test_interleaved_childrens_headers_are_no_exception_line():
    from crashmatrix.verdict.classify import classify

    out = read_output(INTERLEAVED)
    assert out.traceback_exception == "TypeError: can't multiply sequence by non-int of type 'float'"
    assert all(t.exception.startswith("TypeError") for t in out.tracebacks if t.exception), out.tracebacks
    verdict = classify(1, stderr=INTERLEAVED)
    assert verdict.error == "TypeError: can't multiply sequence by non-int of type 'float'", verdict


def test_a_message_that_starts_with_a_newline_is_told_by_its_first_line_of_words():
    # torch's invalid TORCH_LOGS (the forty-ninth held-out set's cp_child_torch_logs_typo, run alone): Python prints
    # `ValueError: ` and the message on the lines after it; the type alone was the error and the signature
    text = (
        "Traceback (most recent call last):\n"
        '  File "/app/train.py", line 3, in <module>\n    import torch\n'
        "ValueError: \nInvalid log settings: graph_breaks,recompile, must be a comma separated list of fully\n"
        "qualified module names, registered log names or registered artifact names.\n"
    )
    (tb,) = read_output(text).tracebacks
    assert tb.exception == (
        "ValueError: Invalid log settings: graph_breaks,recompile, must be a comma separated list of fully"
    )
    # a message on the line itself, or none at all (`raise ValueError`), as Python printed it
    assert read_output(text.replace("ValueError: \n", "ValueError: bad\n")).tracebacks[0].exception == "ValueError: bad"
    assert read_output(text.split("ValueError")[0] + "ValueError\n").tracebacks[0].exception == "ValueError"


def test_a_blank_message_takes_no_words_from_what_the_program_printed_next():
    # a review's program, run alone: `raise ValueError("\n")`, then an atexit callback printed its line. The exception
    # is `ValueError: ` and a blank line; the callback's line was read as its message (`ValueError: cleanup: ...`)
    text = (
        "Traceback (most recent call last):\n"
        '  File "/app/prog.py", line 5, in <module>\n    raise ValueError("\\n")\n'
        "ValueError: \n\ncleanup: removed 3 temp files\n"
    )
    assert read_output(text).exception_line == "ValueError:"
    assert read_output(text).tracebacks[0].exception == "ValueError:"


def test_hydras_error_is_the_line_before_its_hint_whatever_is_printed_after_it():
    # a review's Hydra app, run alone: Hydra's one line and its hint, then a line the program's atexit printed (as
    # wandb prints `wandb: Synced 0 runs`); that line was the error, the signature and ISSUE.md's headline
    text = (
        "Multiple values for model. To override a value use 'override model: wide'\n\n"
        "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\nwandb: Synced 0 runs; bye\n"
    )
    assert read_output(text).exception_line == (
        "Multiple values for model. To override a value use 'override model: wide'"
    )


def test_an_exception_raised_while_logging_reported_one_is_no_failure_either():
    # the fifty-second held-out set's lg_fmt_key_missing, recorded (run alone: exit 0): a format asks for `%(step)s`
    # that a record lacks; logging prints `--- Logging error ---`, the KeyError, then the ValueError it raised while
    # handling it, and goes on. The chained ValueError was read as the job's failure
    text = (
        "--- Logging error ---\nTraceback (most recent call last):\n"
        '  File "/usr/lib/python3.11/logging/__init__.py", line 445, in _format\n    return self._fmt % values\n'
        "KeyError: 'step'\n\nDuring handling of the above exception, another exception occurred:\n\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.11/logging/__init__.py", line 451, in format\n'
        "    raise ValueError('Formatting field not found in record: %s' % e)\n"
        "ValueError: Formatting field not found in record: 'step'\nCall stack:\n"
    )
    assert [t.ignored for t in read_output(text).tracebacks] == [True, True]
    # a chain the program raised is its failure, as before
    assert [t.ignored for t in read_output(text.replace("--- Logging error ---\n", "")).tracebacks] == [False, False]
