"""The outcome words of the contract: the enum, the order reports list them in, and what counts as failing.

Every "is this a failure" question in the tree is asked here, so the three answers stay one definition each:
- `is_failure`: any word but pass and skip (error included): the run did not do what it should;
- `is_run_error`: error, crashmatrix could not run the cell: a failure of the run, nothing about the cell's
  configuration (explain, bisect and resume leave it out);
- `counts_as_failing`: a failure that tells something about its cell (not error): what --max-failures counts,
  rerun --failing picks, and the reports' "failing" columns and colours count.

`FailureKind` is what tells one failure from another (outcome, signal, signature), with its one-line label:
every report, explain, compare, bisect and hunt group and name failures by it. A distributed cell's `rank`
is not part of it (`rank_note` says it beside the label).
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from crashmatrix.text import shorten, shorten_apart


class Outcome(str, enum.Enum):
    """The outcome words, in the order reports list them."""

    PASS = "pass"
    FAIL = "fail"
    CRASH = "crash"
    WORKER_CRASH = "worker_crash"
    RANK_CRASH = "rank_crash"
    CUDA_ERROR = "cuda_error"
    OOM = "oom"
    TIMEOUT = "timeout"
    NAN = "nan"
    SKIP = "skip"
    ERROR = "error"

    def __str__(self) -> str:  # so f-strings and CSV cells show the word
        return self.value

    @property
    def is_failure(self) -> bool:
        return is_failure(self.value)


ORDER = tuple(o.value for o in Outcome)  # the words as reports list them (counts, legends)

_NOT_FAILURES = frozenset((Outcome.PASS.value, Outcome.SKIP.value))


def is_pass(outcome: str) -> bool:
    return outcome == Outcome.PASS.value


def is_failure(outcome: str) -> bool:
    """Any outcome but pass and skip, error included."""
    return outcome not in _NOT_FAILURES


def is_run_error(outcome: str) -> bool:
    """crashmatrix could not run the cell: nothing about the cell's configuration."""
    return outcome == Outcome.ERROR.value


def counts_as_failing(outcome: str) -> bool:
    """A run that tells something about its cell by failing: what --max-failures counts and rerun --failing picks."""
    return is_failure(outcome) and not is_run_error(outcome)


def display_rank(outcome: str) -> tuple[int, str]:
    """Sort key listing outcome words in ORDER, any word not in the contract after them, alphabetically."""
    return (ORDER.index(outcome), "") if outcome in ORDER else (len(ORDER), outcome)


# Signatures that only restate the outcome word: kept in results.csv, left out of a kind's one-line
# label. Here rather than in crashmatrix.verdict.signature (which imports this module and names them in its vocabulary).
KILLED_BY_SIGNAL = "killed_by_signal"  # the cell's main process died by a signal
HANG = "hang"  # timed out with no known cause in its output
NON_FINITE = "non_finite"  # the probe saw a nan/inf loss
LAUNCH_ERROR = "launch_error"  # outcome error: crashmatrix could not start the cell
JOB_LOST = "job_lost"  # outcome error: a submitit/Slurm job ended without the cell's result
RESTATES_OUTCOME = frozenset({KILLED_BY_SIGNAL, HANG, NON_FINITE, LAUNCH_ERROR, JOB_LOST})
# How failures are grouped into signatures (crashmatrix.verdict.signature), kept in a run's env.json
# (`grouping_version`; a run without it is of version 1). 2: a message's numbers never split a failure, and an
# exception without a known cause is signed by the program's frame too (with_place): two places are two
# failures. 3: a hang in a usual wait (CUDA synchronize, DataLoader _get_data) is signed by the program's line
# below it with the wait's name (`hang in CUDA synchronize at app/train.py:main`), and CUDA after fork is a fail.
# 4: a failed assert() in native code is signed by its file, function and condition (`hist.c: build_hist:
# n_bins > 0`), in the main process or a worker, as a CUDA kernel's assertion is; a process pool worker's
# exception, a Python child's printed before the main's CalledProcessError and an asyncio task's never retrieved
# are signed at their own functions, not the main's that heard of them. 5: a multiprocessing child's uncaught
# exception (`Process NAME:`) before the main's check of its exit code, and an exception a thread kept and the main
# raised `from`, are signed at their own functions; a library installed into a folder of its own (a `*.dist-info`
# beside it) is no frame of the program's; a SIGABRT after glibc's heap check is signed
# `heap_corruption: ` and its words, at its place (by its class and place alone since 11). compare joins runs of two versions by cell, class and place
# (signature_class). 6: a child process's exception raised in library frames alone (mp.spawn's _wrap, a loader
# worker's collate or worker_init_fn call) is signed at the program's call that started the child; a death by
# signal in a native function a backtrace names, by that function too; glibc's stack protector's abort by its words.
# A torch.compile error, at the program's line that broke the trace. 7: a traceback a log formatter printed with its
# prefix on every line is signed by its exception and place, not by its first prefixed line; under inject a failure
# the program reported its own way (its own sys.excepthook, its stderr sent to its log file) by the uncaught
# exception the process recorded. 8: a hung process looping through a library is signed by the program's call under
# it; a Python child run as a module, or of another program than the main's, whose traceback came before the main's
# failure on it, by the child's exception; a traceback rich printed in its box or
# loguru marked, by its exception and place. 9: a pool worker's own chain (raised again as its `with` block closed)
# by the worker's first raise; rich's folded message joined only where rich folded it; a child told by another
# program's traceback only from runpy's `_run_module_as_main`. 10: a torchrun rank's rich box or loguru marks, and
# under inject a rank's failure its own hook printed in a line, by the rank's exception and place. 11: under
# inject, the exception a program caught before its own sys.exit (it printed a line of its own), by that exception;
# load_state_dict's error by every kind of mismatch it lists, each list of keys by its least; a busy hang whose
# line moves between samples by the frame that loops around a loop-free function it was caught in; a TorchScript model's by what its interpreter
# raised, at the model's line; a lost gloo peer by the child that failed first; c10's prefix without its date;
# a main waiting on a queue.Queue with the program's thread it waits on. 12: a DataLoader worker's bus error as any
# worker's death by a signal, at its place (worker_signal, no longer worker_bus_error_shm); the program's own cleanup
# (`__exit__`, close, `__del__`, `finally:`) failing as its first error unwound by that first error. 13: an exception
# group nested in another (a TaskGroup's task running its own) by its first leaf; a C++ extension that does not
# compile by the compiler's first error; a rank that printed its error, then died by a signal no launcher sent, by
# that error; glibc's heap check that aborted as `glibc_heap_check`, no longer `heap_corruption`.
GROUPING_VERSION = 13


def _beyond_outcome(signature: str) -> str:
    """What a kind's label says of its signature: "" for a word that restates the outcome; a class word
    signed with its program's frame (`killed_by_signal in app/io.py:parse_header`,
    crashmatrix.verdict.signature.with_place) as that word alone, as it was labelled before it had one."""
    word, _, place = signature.partition(" in ")
    if place and word.isidentifier():
        signature = word
    return "" if signature in RESTATES_OUTCOME else signature


KIND_COLUMNS = ("outcome", "signal", "signature")  # results.csv's columns that make a FailureKind


@dataclass(frozen=True, order=True)
class FailureKind:
    """How one run ended, as far as telling failures apart goes: outcome word, signal and signature.

    Two runs failed the same way exactly when their kinds are equal; a pass is FailureKind("pass").
    Ordered field by field, as the tuple (outcome, signal, signature) is.
    """

    outcome: str
    signal: str = ""
    signature: str = ""

    @classmethod
    def from_row(cls, row: Mapping, with_signature: bool = True) -> FailureKind:
        """The kind of a results.csv row. A field that is missing, None or NaN (pandas' empty field) is
        empty; an older results.csv has no signature. with_signature=False leaves the signature out, to
        set a run with signatures beside one without."""
        outcome, signal, signature = (_field(row, column) for column in KIND_COLUMNS)
        return cls(outcome, signal, signature if with_signature else "")

    @property
    def is_pass(self) -> bool:
        return is_pass(self.outcome)

    @property
    def is_failure(self) -> bool:
        return is_failure(self.outcome)

    @property
    def is_run_error(self) -> bool:
        return is_run_error(self.outcome)

    @property
    def counts_as_failing(self) -> bool:
        return counts_as_failing(self.outcome)

    def label(self, width: int | None = 60, parenthesized: bool = False) -> str:
        """The kind on one line, without its empty parts and without a signature that only restates the
        outcome: 'crash SIGSEGV', 'fail fd_exhaustion', 'pass'. width: the signature is cut to it (None:
        whole). parenthesized: the signature in brackets, as bisect and hunt write it: 'fail (fd_exhaustion)'."""
        signature = _beyond_outcome(self.signature)
        if width is not None:
            signature = shorten(signature, width)
        head = " ".join(part for part in (self.outcome, self.signal) if part)
        if parenthesized:
            return head + (f" ({signature})" if signature else "")
        return " ".join(part for part in (head, signature) if part)

    def as_json(self) -> dict:
        """{"outcome", "signal", "signature"}: the kind as hunt.json, hunt-named.json and compare --format json write it."""
        return {"outcome": self.outcome, "signal": self.signal, "signature": self.signature}

    def said(self) -> str:
        """The kind as bisect and hunt write it, the signature whole and in brackets: 'fail (fd_exhaustion)'."""
        return self.label(None, parenthesized=True)


def ranks_in_order(ranks: Iterable[object]) -> tuple[str, ...]:
    """Distinct ranks as results.csv spells them, in rank order (2 before 10); empty and None left out."""
    known = {str(r) for r in ranks if r is not None and str(r) != ""}
    return tuple(sorted(known, key=lambda r: (len(r), r)))


def rank_note(ranks: Iterable[object]) -> str:
    """'(rank 1)', '(ranks 0, 1)': which ranks of a distributed job failed this way; "" where none is known.

    Not part of a FailureKind: the same failure may strike another rank in another run (whichever draws the
    bad batch, or dies first), and it is still the same failure; the rank says where it struck."""
    known = ranks_in_order(ranks)
    if not known:
        return ""
    return f"(rank {known[0]})" if len(known) == 1 else f"(ranks {', '.join(known)})"


def with_rank_note(label: str, ranks: Iterable[object]) -> str:
    """'rank_crash SIGSEGV (rank 1)': a kind's label with the ranks it struck, where any."""
    note = rank_note(ranks)
    return f"{label} {note}" if note else label


def kind_labels(kinds: Iterable[FailureKind], width: int = 40) -> dict[FailureKind, str]:
    """Each kind's label, about width characters, no two alike: count by the kind, show by this label.

    Labels cut to the same width are shortened to what tells them apart (crashmatrix.text.shorten_apart); two kinds
    whose whole labels agree (they differ by a signature that restates the outcome) show that signature."""
    kinds = list(dict.fromkeys(kinds))
    whole = {k: k.label(None) for k in kinds}
    alike = Counter(whole.values())
    spelled = {
        k: (w if alike[w] == 1 else " ".join(p for p in (k.outcome, k.signal, k.signature) if p))
        for k, w in whole.items()
    }
    short = shorten_apart(spelled.values(), width)
    return {k: short[" ".join(spelled[k].split())] for k in kinds}


def _field(row: Mapping, column: str) -> str:
    value = row.get(column)
    if value is None or (isinstance(value, float) and value != value):  # NaN is the only value unequal to itself
        return ""
    return str(value)
