"""A timeout's stacks.txt read back: where the cell hung, for `crashmatrix diagnose` of a cell's logs.

A hang prints nothing of where it waits: a cell's stderr.log ends as it was killed, often empty. What the run
learnt is in stacks.txt beside it (forensics.collect wrote it before the kill: every process, headed by its
role, with faulthandler's or py-spy's stacks, and a busy one's main thread in more samples). Read back here,
the same summaries the run made from those stacks give the place (stacks.summarize, straggler.summarize for
ranks). What the run knew besides is not in the file: the time limit, and under inject how many steps a rank
had made.

A stacks.txt that peers.py wrote (`=== pid N (rank 1), once the job had failed`) is a failed job's, not a
hang's: it is no timeout's and is not read as one.
"""

from __future__ import annotations

import re

from crashmatrix.verdict import straggler
from crashmatrix.verdict.stacks import (
    LOOPED,
    RAN,
    STAYED,
    ProcessStacks,
    faulthandler_frame,
    parse_faulthandler,
    parse_pyspy,
    summarize,
)

FILE = "stacks.txt"  # in the cell's folder (forensics.collect writes it, peers.py a failed job's)
# forensics._write_stacks's head of a process: `=== pid 4242 (DataLoader worker of rank 1): python train.py`
_HEAD = re.compile(r"^=== pid (?P<pid>\d+) \((?P<role>[^)]*)\): (?P<cmdline>.*)$", re.M)
_OWN_RANK = re.compile(r"^(?:main, )?rank (?P<rank>\d+)$")
_HELPER_OF_RANK = re.compile(r" of rank (?P<rank>\d+)$")
_FAULTHANDLER = "--- Python stacks of every thread"
_PYSPY = "--- py-spy dump"
_SAMPLES = "--- its main thread in more samples"
_SAMPLE = "Sample (most recent call first):"


def is_timeouts(text: str) -> bool:
    """Whether text is the stacks.txt a timeout wrote: one process's head at its start, with a command line."""
    return bool(text.startswith("=== pid ") and _HEAD.match(text))


def read(text: str) -> list[tuple[str, ProcessStacks]]:
    """Each process of the file: (its role as the file heads it, its stacks)."""
    heads = list(_HEAD.finditer(text))
    found = []
    for head, after in zip(heads, [*heads[1:], None]):
        body = text[head.end() : after.start() if after else len(text)]
        p = ProcessStacks(int(head["pid"]), head["cmdline"], _section(body, _FAULTHANDLER), _section(body, _PYSPY))
        p.threads = parse_faulthandler(p.faulthandler) or parse_pyspy(p.pyspy)
        p.busy = any(word in body for word in (LOOPED, STAYED, RAN))
        p.samples = [
            [f for line in sample.splitlines() if (f := faulthandler_frame(line))]
            for sample in _section(body, _SAMPLES).split(_SAMPLE)[1:]
        ]
        found.append((head["role"], p))
    return found


# py-spy's native frames of a thread named MainThread (`Thread 27589 (idle): "MainThread"`), the innermost first
_MAIN_THREAD_NATIVE = re.compile(r'^Thread \d+ \([^)]*\): "MainThread"\n\s+(?P<innermost>.+)$', re.M)
_LIBGOMP = re.compile(r"/libgomp[^/]*\.so(?:\.\d+)*\)$")


def child_in_openmp(text: str) -> str:
    """`27589 (DataLoader worker)`: a process but the main whose main thread waited inside GNU OpenMP (libgomp) as the
    hang was caught, by py-spy's native frames (the forensics extra); "". A forked process's first parallel region
    waits for ever where the parent had run OpenMP's threads before it forked (the ninety-seventh held-out set's
    kx_hang_worker_gomp and the eighty-ninth's th_hang_worker_threads_after_fork: a worker_init_fn that raised the
    worker's threads from the loader's one)."""
    for role, process in read(text):
        native = _MAIN_THREAD_NATIVE.search(process.pyspy) if role != "main" else None
        if native and _LIBGOMP.search(native["innermost"].strip()):
            return f"{process.pid} ({role})"
    return ""


def samples_text(samples: list) -> str:
    """A busy process's samples of its main thread (forensics._more_samples), as stacks.txt keeps them: which of
    the program's frames holds a loop is read from them (stacks.busy_place), by the run and by diagnose."""
    said = [f"{_SAMPLES}\n"]
    for frames in samples:
        said.append(_SAMPLE + "\n" + "".join(f'  File "{f.file}", line {f.line} in {f.func}\n' for f in frames))
    return "".join(said)


def _section(body: str, mark: str) -> str:
    """The stacks under one of the file's `--- ` marks, to the next mark or the process's end."""
    at = body.find("\n" + mark)
    if at == -1:
        return ""
    start = body.find("\n", at + 1)
    end = body.find("\n--- ", start)
    return body[start + 1 : end if end != -1 else len(body)].strip("\n") + "\n"


def hang(text: str) -> tuple[str, str]:
    """(for `error`, for `where`) from a timeout's stacks.txt, as forensics.collect said them; ("", "") where the
    file gives no process's stacks."""
    procs = read(text)
    # a distributed cell: by its ranks
    own = [(int(m["rank"]), p) for role, p in procs if (m := _OWN_RANK.match(role))]
    states = [straggler.state(p, rank) for rank, p in own]
    if any(s.stacked for s in states):
        helpers = [(int(m["rank"]), p) for role, p in procs if (m := _HELPER_OF_RANK.search(role))]
        return straggler.summarize(states, helpers)
    root = next((p for role, p in procs if role == "main" or role.startswith("main, ")), None)
    return summarize(root, [p for _role, p in procs if p is not root])
