"""What a cell's output is read as where its main process reported its failure its own way (pure but for
reading the record; never imports torch).

Under inject each process records its uncaught exception as Python's default hook prints it
(incell/uncaught.py). Where the main process's output holds no traceback ending in that exception (a program's
own sys.excepthook printed a shortened report; its stderr went to its own log file), the output is read with
the recorded traceback after it, under a line that says so: the failure is then told, signed and placed by the
same rules as a printed one. The recorded text is kept in the cell as `uncaught.txt`, the user's to read.

A program that catches its failure, prints a line of its own and calls sys.exit(1) in its except block ends by
no exception at all; under inject that sys.exit records the exception being handled (incell/last_exit.py's
`handled-PID.txt`). Where the program's own code made that call (not a library's: Hydra's run_and_report and
argparse's error are told by their own rules), what it printed names that exception (its type or its message)
and neither stream shows its traceback, it is read the same way, under its own line, and kept as
`handled.txt`: the one line the program printed is its summary, the exception it caught the failure. A thread's
uncaught exception that the program's own threading.excepthook printed as it liked is read where its hook said
it, kept as `thread-uncaught.txt`: the thread's death comes before what the main then failed on.
"""

from __future__ import annotations

import os
import re
import shutil

from crashmatrix.incell.stackdump import dump_dir
from crashmatrix.incell.uncaught import PREFIX, THREAD_PREFIX
from crashmatrix.verdict import exit_record
from crashmatrix.verdict.parsed import read_output

KEPT = "uncaught.txt"
SAYS = "crashmatrix: the uncaught exception, as Python prints it (the program printed it otherwise):"
KEPT_HANDLED = "handled.txt"
SAYS_HANDLED = (
    "crashmatrix: the exception the program caught before it exited by its own sys.exit, as Python prints it:"
)
KEPT_THREAD = "thread-uncaught.txt"
SAYS_THREAD = (
    "crashmatrix: a thread's uncaught exception, as Python prints it (the program's threading.excepthook printed "
    "it otherwise):"
)
RECORDS = (KEPT, KEPT_HANDLED, KEPT_THREAD)  # a cell's records, read with its stderr.log, not as logs of their own
# a rank's records, kept as the main's are (`uncaught-rank1.txt`, `handled-rank1.txt`), read under its label
_RANK_RECORD = re.compile(r"^(uncaught|handled)-rank(\d+)\.txt$")


def is_record(name: str) -> bool:
    """Whether a file of a cell's folder is one of its records, read with its stderr.log (beside)."""
    return name in RECORDS or bool(_RANK_RECORD.match(name))


def told(stderr: str, stdout: str, cell_dir: str, pid: int | None, exit_code: int | None = None) -> str:
    """stderr, followed by the main process's recorded uncaught exception where neither stream shows it (a hook
    may print to stdout), the record then kept in the cell (KEPT), else by the exception it caught before its
    own sys.exit(exit_code) (KEPT_HANDLED); and each rank's the in-cell recorder knows, under its `[rankN]: `
    label, where its own lines do not show it."""
    if pid is None:
        return stderr
    path = os.path.join(dump_dir(cell_dir), f"{PREFIX}{pid}.txt")
    read = appended(stderr, _read(path), also_printed=stdout)
    if read != stderr:
        _keep(path, os.path.join(cell_dir, KEPT))
    else:
        read = _handled_told(stderr, stdout, cell_dir, pid, exit_code)
        if read != stderr:
            _keep(exit_record.handled_path(cell_dir, pid, chain=True), os.path.join(cell_dir, KEPT_HANDLED))
    thread_record = os.path.join(dump_dir(cell_dir), f"{THREAD_PREFIX}{pid}.txt")
    later = _later(thread_record, os.path.join(dump_dir(cell_dir), f"{PREFIX}{pid}.txt"))
    told_thread = thread_told(read, _read(thread_record), after_main=later)
    if told_thread != read:
        _keep(thread_record, os.path.join(cell_dir, KEPT_THREAD))
    return _ranks_told(told_thread, stdout, cell_dir, pid)


def _later(record: str, than: str) -> bool:
    """Whether record was written after than (both there): a thread that died after the main's own failure."""
    try:
        return os.stat(record).st_mtime_ns > os.stat(than).st_mtime_ns
    except OSError:
        return False


def thread_told(stderr: str, recorded: str, after_main: bool = False) -> str:
    """stderr with a thread's recorded uncaught exception (`Exception in thread NAME:`, its traceback) under
    SAYS_THREAD, where the program's own threading.excepthook printed something else: after the first line that
    names the exception's message or the thread before the first traceback (the hook's line, said when the thread
    died, before what the main then made of it), else just before that traceback. Unchanged where stderr shows that thread's death as Python
    tells it, or where the thread died after the main's own uncaught exception (after_main: at its shutdown)."""
    head, _, _rest = recorded.partition("\n")
    last = read_output(recorded).last_traceback() if recorded else None
    if after_main or last is None or not last.exception or head in stderr or _printed(stderr, last.exception):
        return stderr
    thread = head.removeprefix("Exception in thread ").rstrip(":")
    message = last.exception.partition(": ")[2].strip()
    said = [w for w in (message[:40], thread) if len(w) >= 4]
    lines = stderr.splitlines(keepends=True)
    printed = read_output(stderr).tracebacks
    # the main's failure (its chain) came later: its traceback's lines (`print(rates.get())`) are not the hook's
    first = stderr[: printed[0].start].count("\n") if printed else len(lines)
    at = next((i + 1 for i, line in enumerate(lines[:first]) if any(w in line for w in said)), first)
    block = SAYS_THREAD + "\n" + recorded.rstrip("\n") + "\n"
    return "".join(lines[:at]) + block + "".join(lines[at:])


def _handled_told(
    stderr: str, stdout: str, cell_dir: str, pid: int, exit_code: int | None, rank: int | None = None
) -> str:
    """stderr, followed by the exception pid caught before it ended itself by its own sys.exit(exit_code), where
    what the program printed names that exception (its report of that failure); a rank's under its label, named by
    its own lines, not those another rank's label marks."""
    if not exit_record.programs_own_exit(cell_dir, pid, exit_code):
        return stderr
    handled = _read(exit_record.handled_path(cell_dir, pid, chain=True))
    own = stderr if rank is None else re.sub(rf"^\s*\[rank(?!{rank}\]:)\d+\]:.*$", "", stderr, flags=re.M)
    if not named(handled, own + "\n" + stdout):
        return stderr
    label = "" if rank is None else f"[rank{rank}]: "
    return appended(stderr, handled, also_printed=stdout, label=label, says=SAYS_HANDLED)


# Not a failure the program caught: an interruption, an exit, a generator's close, an iterator's end (the
# program's loop control: what it printed of it is a log line, and its exit is for a reason of its own)
_NOT_FAILURES = ("KeyboardInterrupt", "SystemExit", "GeneratorExit", "StopIteration", "StopAsyncIteration")


def named(recorded: str, printed: str) -> bool:
    """Whether what the program printed names the exception it caught (its type, or its message's first words):
    its report of that failure (`error: training failed (RuntimeError)`, `sys.exit(f"failed: {e}")`), not an
    exception it handled as expected before an exit of its own reason (a StopIteration before `no batches: bad
    config`, a review's)."""
    tracebacks = read_output(recorded).tracebacks if recorded else ()
    if not tracebacks or tracebacks[-1].exception.partition(":")[0].rsplit(".", 1)[-1] in _NOT_FAILURES:
        return False
    for each in tracebacks:  # the exception or what it was raised from (`raise RuntimeError(...) from e`)
        kind, _, message = each.exception.partition(": ")
        kind, words = kind.rsplit(".", 1)[-1], message.strip()[:40]
        if kind and (re.search(rf"\b{re.escape(kind)}\b", printed) or (len(words) >= 8 and words in printed)):
            return True
    return False


def _keep(record: str, kept: str) -> None:
    try:
        shutil.copy2(record, kept)  # its time too: which of two records came first (_later)
    except OSError:
        pass


def _ranks_told(stderr: str, stdout: str, cell_dir: str, main_pid: int) -> str:
    """A rank whose program printed its failure its own way (its own excepthook): torchrun labels what it printed
    `[rank1]: `, and no traceback of those lines ends in its exception. Its record, labelled so, after the output;
    else the exception it caught before its own sys.exit, where what it printed names it, as for the main."""
    from crashmatrix.verdict.ranks import recorded_ranks  # a distributed cell's only

    # in the order the ranks ended: the first record after the output is the first rank's to fail
    for rank in sorted(recorded_ranks(cell_dir), key=lambda r: (r.ended is None, r.ended or 0.0)):
        if rank.pid == main_pid:
            continue
        label = f"[rank{rank.rank}]: "
        path = os.path.join(dump_dir(cell_dir), f"{PREFIX}{rank.pid}.txt")
        told = appended(stderr, _read(path), label=label)
        kept = f"uncaught-rank{rank.rank}.txt"
        if told == stderr:
            code = exit_record.own_exit_code(cell_dir, rank.pid)
            told = _handled_told(stderr, stdout, cell_dir, rank.pid, code, rank.rank)
            path, kept = exit_record.handled_path(cell_dir, rank.pid, chain=True), f"handled-rank{rank.rank}.txt"
        if told != stderr:  # kept in the cell, so that resolve and diagnose read the cell's log as the run did
            _keep(path, os.path.join(cell_dir, kept))
        stderr = told
    return stderr


def main_raised(cell_dir: str, pid: int, told: str) -> str:
    """The cell's main process's own uncaught exception, as recorded, where it is the one told's traceback ends
    in: a parent that is no rank (torch.multiprocessing.spawn's, Lightning's ddp_spawn's) failing on its own after
    its ranks ended, whose traceback no rank label marks ("" otherwise). A launcher's report of a rank's failure
    (spawn's ProcessRaisedException, torchrun's ChildFailedError) quotes the rank's traceback: not the main's own."""
    from crashmatrix.verdict import ranks  # a distributed cell's only

    recorded = _read(os.path.join(dump_dir(cell_dir), f"{PREFIX}{pid}.txt"))
    if not recorded or ranks.is_distributed(recorded):
        return ""
    last = read_output(recorded).last_traceback()
    return recorded if last is not None and last.exception and _printed(told, last.exception) else ""


def beside(log_path: str, text: str) -> str:
    """A cell's stderr.log as its run read it: with the cell's KEPT record after it, else its KEPT_HANDLED one,
    then each rank's, under its label (crashmatrix diagnose, resolve's ISSUE.md)."""
    if os.path.basename(log_path) != "stderr.log":
        return text
    folder = os.path.dirname(log_path)
    read = appended(text, _read(os.path.join(folder, KEPT)))
    if read == text:
        read = appended(text, _read(os.path.join(folder, KEPT_HANDLED)), says=SAYS_HANDLED)
    later = _later(os.path.join(folder, KEPT_THREAD), os.path.join(folder, KEPT))
    read = thread_told(read, _read(os.path.join(folder, KEPT_THREAD)), after_main=later)
    try:
        names = sorted(n for n in os.listdir(folder) if _RANK_RECORD.match(n))
    except OSError:
        names = []
    for name in names:
        kind, rank = _RANK_RECORD.match(name).groups()  # type: ignore[union-attr]
        says = SAYS if kind == "uncaught" else SAYS_HANDLED
        read = appended(read, _read(os.path.join(folder, name)), label=f"[rank{rank}]: ", says=says)
    return read


def appended(stderr: str, recorded: str, also_printed: str = "", label: str = "", says: str = SAYS) -> str:
    """stderr, then the recorded traceback under says, each line after label (a rank's `[rank1]: `), where no
    traceback of stderr (nor of also_printed, the other stream) ends in its exception."""
    last = read_output(recorded).last_traceback() if recorded else None
    if last is None or not last.exception or any(_printed(out, last.exception) for out in (stderr, also_printed)):
        return stderr
    lines = [says, *recorded.rstrip("\n").split("\n")]
    return (
        stderr + ("" if not stderr or stderr.endswith("\n") else "\n") + "".join(f"{label}{line}\n" for line in lines)
    )


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def _printed(output: str, exception: str) -> bool:
    """Whether a traceback of the output ends in that exception line (its head may be glued to a progress bar's
    line: `  4%|▍ | 4/100\rTraceback (most recent call last):`), Python's suggestion after it aside: its own hook
    prints `... no attribute 'gpu_time_total'. Did you mean: 'cpu_time_total'?`, the recorded text has none."""
    said = _SUGGESTION.sub("", exception)
    return any(_SUGGESTION.sub("", t.exception) == said for t in read_output(output).tracebacks)


# what Python's own hook adds to a NameError's or AttributeError's line (3.10 on), which traceback's text lacks
_SUGGESTION = re.compile(r"\. Did you mean: .*\?$")
