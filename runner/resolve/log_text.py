"""A failed job's log as the verdict's rules read a cell's stderr: files (or standard input) read in bounded
memory, terminal escapes and per-line timestamps taken off, per-rank files labelled as torchrun labels them.

Pure but for reading the files. A log of any size costs at most HEAD + TAIL bytes plus the middle's telling
lines (MIDDLE_CAP): a cell's verdict too is told from the ends of its stderr (rundir/cell_logs.py), and the
first failure of a long job (a rank's traceback, a worker's last words) is in the lines the middle keeps.
"""

from __future__ import annotations

import json
import os
import re
import sys
import typing
from dataclasses import dataclass, field

from crashmatrix.errors import BadInput
from crashmatrix.plain_text import plain
from crashmatrix.verdict import kept_stacks, peers, uncaught

HEAD = 1024 * 1024
TAIL = 2 * 1024 * 1024  # a cell reads 64 kB and 256 kB of its stderr (rundir/cell_logs.py): a log holds stdout too
MIDDLE_CAP = 1024 * 1024  # of the middle's telling lines, kept at most
_CHUNK = 1024 * 1024
_LONGEST_LINE = 1024 * 1024  # of the middle: a longer one is skipped, not kept in memory to its end

# A line of the middle the rules may need: a failure's own words, a launcher's or a scheduler's report. Literal
# words, each looked for with bytes.find (a regular expression's alternation of them scans at a tenth the speed).
_TELLING = (
    b"Traceback (most recent call last)",
    b"Error",
    b"Exception",
    b"Fatal Python",
    b"killed by signal",
    b"exitcode",
    b"Root Cause",
    b"srun: ",
    b"slurmstepd",
    b"ERROR",
    b"CUDA",
    b"NCCL",
    b"CUDNN",
    b"terminate called",
    b"what():",
    b"Killed",
)  # a signal's own word (Segmentation fault) comes in faulthandler's, torch's or Slurm's line, found by theirs
# A timestamp before every line (GitHub Actions, `ts`, Python logging, journald-style): taken off, so that the
# rules' `^Traceback`, `^[rank1]:` and `^Fatal Python error` match as they do in a cell's stderr.
_TIMESTAMP = re.compile(
    r"^(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?|\[\d{2}:\d{2}:\d{2}(?:\.\d+)?\]"
    r"|\w{3} [ \d]\d \d{2}:\d{2}:\d{2})(?: ?\| ?| - |: | )",
    re.M,
)
# torchrun --log-dir: <dir>/<run id>/attempt_<n>/<local rank>/stderr.log; or a file named for its rank.
_RANK_OF_PATH = re.compile(r"(?:attempt_\d+/(\d+)/[^/]+$|(?:^|[/_.-])rank[_-]?(\d+)(?:[/_.-]|$))")
_RANK_PREFIX = re.compile(r"^\s*\[rank\d+\]:", re.M)


@dataclass
class Log:
    """The job's text, as the rules read it, and what reading it left out."""

    text: str
    names: list[str] = field(default_factory=list)
    left_out: int = 0  # bytes of the middles not kept (only their telling lines were)
    stacks: str = ""  # a timeout's stacks.txt (given, or beside a cell's stderr.log): the job hung, killed at a limit
    peers: str = ""  # the stacks.txt of a failed job's other ranks (verdict/peers.py), beside a cell's stderr.log


def read_logs(paths: list[str], stdin=None) -> Log:
    """The job's parts (files, a --log-dir folder, `-` for standard input) as one text; BadInput naming the
    file where one is unreadable, binary or empty."""
    if not paths:
        raise BadInput("diagnose: give a log file, several (one job's per-rank logs), a folder, or - for stdin")
    parts = [p for given in paths for p in _expanded(given)]
    texts, left_out, stacks = [], 0, {}
    for path in parts:
        raw, skipped = _read_bounded(path, stdin)
        text = _as_text(raw, path)
        if kept_stacks.is_timeouts(text):  # where the job waited, not what it printed (given, or renamed)
            stacks[_folder(path)] = text
            continue
        left_out += skipped
        beside = _stacks_beside(path)
        if beside:
            stacks.setdefault(_folder(path), beside)
            at = _at_the_kill(path) if not skipped else None
            text = text if at is None else _as_text(raw[:at], path)  # the kill's answers are not the hang's
        text = uncaught.beside(path, text)  # a cell's: as its run read it
        rank = _rank_of(path) if len(parts) > 1 else None
        texts.append((_folder(path), _labelled(text, rank)))
    if not any(t.strip() for _f, t in texts) and not stacks:
        raise BadInput(f"{', '.join(parts)}: empty, nothing to diagnose")
    # one cell's stacks, read with that cell's logs only: two cells' files given at once are no one job that hung
    hung = next(iter(stacks.values())) if len(stacks) == 1 and {f for f, _t in texts} <= set(stacks) else ""
    joined = "\n".join(t.rstrip("\n") for _f, t in texts if t.strip()) + "\n"
    folders = {f for f, _t in texts}
    kept = _read_beside(os.path.join(next(iter(folders)), kept_stacks.FILE)) if len(folders) == 1 else ""
    return Log(joined, parts, left_out, hung, kept if peers.is_kept(kept) else "")


def _folder(path: str) -> str:
    return os.path.dirname(os.path.abspath(path)) if path != "-" else "-"


def _stacks_beside(path: str) -> str:
    """The timeout's stacks.txt in a cell's folder, beside its stderr.log: a hang's stderr holds no place of the
    wait (often nothing at all), and the run read the stacks for it."""
    if os.path.basename(path) != "stderr.log":
        return ""
    text = _read_beside(os.path.join(os.path.dirname(path), kept_stacks.FILE))
    return text if kept_stacks.is_timeouts(text) else ""


def _at_the_kill(path: str) -> int | None:
    """stderr.log's size as its run's timeout began the kill (result.json's `stderr_at_kill`): what the processes
    printed after it answers the kill (a DataLoader's `worker ... killed by signal: Terminated`), and the run's
    verdict read only what came before; None where the cell's result.json does not say."""
    try:
        with open(os.path.join(os.path.dirname(path), "result.json"), encoding="utf-8") as f:
            at = json.load(f).get("stderr_at_kill")
    except (OSError, ValueError, AttributeError):
        return None
    return at if isinstance(at, int) and at >= 0 else None


def _read_beside(path: str) -> str:
    if not os.path.isfile(path):
        return ""
    try:
        raw, _skipped = _read_bounded(path)
        return _as_text(raw, path)
    except BadInput:
        return ""


def _expanded(given: str) -> list[str]:
    """A folder (torchrun's --log-dir) as its per-rank stderr and stdout files, stderr first per rank."""
    if given == "-" or not os.path.isdir(given):
        return [given]
    found = []
    for folder, _dirs, files in sorted(os.walk(given)):
        for name in sorted(files, key=lambda n: (n != "stderr.log", n)):
            if name.endswith((".log", ".out", ".err", ".txt")) and not uncaught.is_record(
                name
            ):  # stderr.log's, read with it
                found.append(os.path.join(folder, name))
    if not found:
        raise BadInput(f"{given}: a folder with no log in it (*.log, *.out, *.err, *.txt)")
    return found


def _read_bounded(path: str, stdin=None) -> tuple[bytes, int]:
    """The file's bytes: whole where small; else its head, its middle's telling lines and its tail."""
    try:
        if path == "-":
            stream = stdin if stdin is not None else sys.stdin.buffer
            return _bounded(stream)
        with open(path, "rb") as f:
            return _bounded(f)
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file") from None
    except IsADirectoryError:
        raise BadInput(f"{path}: a folder") from None
    except OSError as e:
        raise BadInput(f"{path}: cannot read it ({e.strerror or e})") from None


def _bounded(stream: typing.BinaryIO) -> tuple[bytes, int]:
    head = stream.read(HEAD)
    if len(head) < HEAD or _binary(head):  # a binary file is refused by its head: the rest is not read
        return head, 0
    tail, middle = b"", _Middle()
    while True:
        chunk = stream.read(_CHUNK)
        if not chunk:
            break
        tail += chunk
        if len(tail) > TAIL:  # what falls out of the tail's window is the middle: its telling lines stay
            middle.add(tail[: len(tail) - TAIL])
            tail = tail[len(tail) - TAIL :]
    cut = tail.find(b"\n")  # the tail from a whole line
    if cut != -1:
        middle.add(tail[: cut + 1])
        tail = tail[cut + 1 :]
    kept = b"\n".join(middle.kept)
    return head + (b"\n" + kept + b"\n" if kept else b"\n") + tail, middle.skipped


class _Middle:
    """The telling lines of the middle of a long log, found by one regular-expression scan per chunk (no
    Python loop over its lines: a 200 MB log has millions)."""

    def __init__(self) -> None:
        self.kept: list[bytes] = []
        self.size = 0
        self.skipped = 0
        self.carry = b""

    def add(self, spill: bytes) -> None:
        text = self.carry + spill
        end = text.rfind(b"\n") + 1  # whole lines only; the rest waits for the next spill
        text, self.carry = text[:end], text[end:]
        if len(self.carry) > _LONGEST_LINE:  # a line without end (a progress bar's, binary): not kept whole
            self.skipped += len(self.carry)
            self.carry = b""
        kept_here = 0
        for start, stop in _telling_lines(text):
            if self.size >= MIDDLE_CAP:
                break
            line = text[start:stop][:4096]
            self.kept.append(line)
            self.size += len(line) + 1
            kept_here += len(line) + 1
        self.skipped += len(text) - kept_here


def _telling_lines(text: bytes) -> list[tuple[int, int]]:
    """(start, end) of each line of text holding a telling word, in order, each once."""
    starts = set()
    for word in _TELLING:
        at = text.find(word)
        while at != -1:
            start = text.rfind(b"\n", 0, at) + 1
            starts.add(start)
            end = text.find(b"\n", at)
            at = text.find(word, end) if end != -1 else -1
    lines = []
    for start in sorted(starts):
        end = text.find(b"\n", start)
        lines.append((start, end if end != -1 else len(text)))
    return lines


def _binary(head: bytes) -> bool:
    """A log may hold a few NULs (torch's fatal-signal handler writes some): a file of many is no log."""
    sample = head[: 64 * 1024]
    return sample.count(b"\0") > len(sample) // 20


def _as_text(raw: bytes, path: str) -> str:
    """The bytes as text; BadInput where they are no text (a NUL in the first 64 kB, or mostly undecodable)."""
    sample = raw[: 64 * 1024]
    if _binary(sample):
        raise BadInput(f"{path}: a binary file, not a log (give the job's output as text)")
    text = raw.decode("utf-8", errors="replace")
    if sample and text[: len(sample)].count("\ufffd") > len(sample) // 10:
        raise BadInput(f"{path}: a binary file, not a log (mostly bytes that are no UTF-8)")
    return without_prefixes(plain(text))


def without_prefixes(text: str) -> str:
    """The text without a timestamp at the start of its lines, where most of its lines carry one."""
    lines = [line for line in text.splitlines() if line.strip()]
    stamped = sum(1 for line in lines if _TIMESTAMP.match(line))
    if not lines or stamped * 2 < len(lines):
        return text
    return _TIMESTAMP.sub("", text)


def _rank_of(path: str) -> int | None:
    found = _RANK_OF_PATH.search(path.replace(os.sep, "/"))
    if not found:
        return None
    return int(found.group(1) or found.group(2))


def _labelled(text: str, rank: int | None) -> str:
    """A per-rank file's lines with torchrun's `[rankN]: ` label, as the ranks' rules read them."""
    if rank is None or _RANK_PREFIX.search(text):
        return text
    return "".join(f"[rank{rank}]: {line}" for line in text.splitlines(keepends=True))
