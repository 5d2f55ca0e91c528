"""A distributed cell's ranks: which rank failed first, told from that rank, never from its victims.

Pure: the cell's output (and what the in-cell recorder wrote, crashmatrix.incell.rank_report) goes in, the root
failure comes out. The evidence, each piece with where it stands in stderr (the ranks share the cell's
stderr, so what a rank printed first stands first):
- each rank's own lines: `[rank0]: ...` (torch.distributed's excepthook once a process group exists),
  a faulthandler dump (`Fatal Python error: Segmentation fault`), an unlabelled traceback (Hydra prints
  the exception itself, so a Lightning rank's is not labelled);
- the launcher's report: torchrun's ChildFailedError (`rank : 1 (local_rank: 1)`, `exitcode : -11 (pid:
  N) (SIGSEGV)`, the error file's traceback when the program used @record), torch.multiprocessing's
  `-- Process 0 terminated with the following error:` and `process 1 terminated with signal SIGSEGV`;
- the recorder under inject: each rank's pid, and when each rank's process ended.

What a failure caused is never the verdict: SIGTERM/SIGKILL sent by the launcher, gloo's `Connection
closed by peer`, NCCL's watchdog, DistBackendError, the launcher's own exception about another rank.

A rank that ended while its peers still trained (uneven inputs, a rank-dependent `break`: it exits 0, and
neither torchrun nor spawn names it) is a failure too, the first one: where every failure left is a
reaction to a peer gone, the rank the recorder saw end first, with no failure of its own, is the verdict
(`rank 1 ended (exit 0) after 5 steps; rank 0 was at step 6`); without the recorder, what stderr tells: a
peer closed its connection and the launcher reports no failure of any other rank.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from crashmatrix.incell import rank_report as recorder
from crashmatrix.verdict.log_prefix import unprefixed
from crashmatrix.verdict.loguru_traceback import unmarked
from crashmatrix.verdict.rich_traceback import unrich
from crashmatrix.verdict.signature import (
    INTERLEAVED_HEAD,
    SIGNAL_TEXT,
    TORCH_FATAL_HEAD,
    WATCHDOG_DUMP,
    finditer,
    lost_a_worker,
    search,
    signal_name,
)

# The signature of a rank that ended while its peers still trained: one word, whichever rank and step.
RANK_ENDED_EARLY = "rank_ended_early"

# Signals a launcher sends to the ranks left when one failed: their deaths are consequences.
LAUNCHER_SIGNALS = frozenset({"SIGTERM", "SIGKILL", "SIGINT"})

# A rank's reaction to another's death, or a launcher's report about another rank.
_CONSEQUENCE = re.compile(
    r"Connection closed by peer|Connection reset by peer|gloo/transport|DistBackendError|DistNetworkError"
    r"|Watchdog caught collective operation timeout|NCCL communicator was aborted|ProcessGroupNCCL.*abort"
    r"|ProcessExitedException|ProcessRaisedException|ChildFailedError|Received SIGTERM|Received SIGINT"
    # torch's Join, thrown on every rank that still had inputs once one ran out: that one (`Rank 1 exhausted all
    # inputs.`) is the cause, whichever printed first (the eighty-fifth set's fs_join_throw_uneven)
    r"|Detected at least one rank that exhausted inputs"
)
# A collective (or the rendezvous) that waited for a peer until its timeout: a peer that had ended would have
# been told at once (`Connection closed by peer`); a peer elsewhere is waited out (verdict/peers.py).
COLLECTIVE_TIMEOUT = re.compile(
    r"Timed out waiting \d+\s*ms for (?:recv|send) operation"  # gloo
    r"|Watchdog caught collective operation timeout"  # NCCL
    r"|DistStoreError: .*\b[Tt]imed out\b"  # the rendezvous store: a rank never came
    r"|\bwait timeout after \d+ms\b"  # the store's wait, older torch
)
# A peer that closed its end of the connection: it ended (or left the group), it did not hang.
PEER_GONE = re.compile(r"Connection closed by peer|Connection reset by peer")
_RANK_PREFIX = re.compile(r"^\s*\[rank(\d+)\]: ?(.*)$")
_FATAL = re.compile(r"^Fatal Python error: (.+?)\s*$", re.M)
# torch's fatal-signal handler (under inject: crashmatrix.incell.stackdump turns it on) names the pid.
_TORCH_FATAL = TORCH_FATAL_HEAD
# A line of torch's fatal-signal backtrace (c10's handler): a thread's heading, one of its frames, the blank after
TORCH_BACKTRACE_LINE = re.compile(r"^(?:SIG[A-Z0-9]+\(\d+\), PID: \d+, Thread \d+:.*|\s*frame #\d+: .*|)\n", re.M)
_LOADER_WORKER = re.compile(r"data/_utils/worker\.py\", line \d+,? in _worker_loop")
_TRACEBACK = "Traceback (most recent call last):"
_CHAINED = re.compile(r"^(?:During handling of the above exception|The above exception was the direct cause)", re.M)
# torchrun's report, one entry per failed rank; the entry under "Root Cause" is its first observed failure.
_TORCHRUN_ENTRY = re.compile(
    r"^\[\d+\]:\n\s+time\s*: (?P<time>\S+)\n\s+host\s*: .*\n\s+rank\s*: (?P<rank>\d+) \(local_rank: \d+\)\n"
    r"\s+exitcode\s*: (?P<code>-?\d+) \(pid: (?P<pid>\d+)\)[ \t]*(?:\((?P<sig>SIG[A-Z0-9]+)\))?[ \t]*\n"
    r"\s+error_file: .*\n\s+traceback : (?P<message>.*(?:\n  .*)*)",
    re.M,
)
_TORCHRUN_ROOT = "Root Cause (first observed failure):"
# torchrun's log of each kill it sends the ranks still running once one has failed
_TORCHRUN_SENDS = re.compile(r"Sending process (\d+) closing signal (SIG[A-Z]+)")
_SPAWN_RAISED = re.compile(r"^-- Process (\d+) terminated with the following error:\n", re.M)
# torch's own words only: a program's "worker process 4242 terminated with signal SIGSEGV" names no rank
SPAWN_EXITED = re.compile(
    r"ProcessExitedException: process (\d+) terminated with (?:signal (SIG[A-Z0-9]+)|exit code (\d+))"
)
# Slurm's report of a task (a rank, under srun) that ended badly: `srun: error: node1: task 3: Segmentation fault
# (core dumped)`, `srun: error: node1: task 1: Exited with exit code 1`.
_SRUN_TASK = re.compile(
    r"^srun: error: \S+: task (\d+): (?:(?P<text>[A-Z][A-Za-z /]+?)(?: \(core dumped\))?|Exited with exit code \d+)\s*$",
    re.M,
)
# What marks output as a distributed job's even when no line names a rank (Lightning's ddp under Hydra).
_DISTRIBUTED = re.compile(r"^Initializing distributed: GLOBAL_RANK: \d+", re.M)
_RANK_LABEL = re.compile(r"^\s*\[rank\d+\]: ", re.M)
# A distributed job's words, in the order is_distributed looks for them
_DISTRIBUTED_WORDS = (_RANK_LABEL, _SPAWN_RAISED, SPAWN_EXITED, _SRUN_TASK, _DISTRIBUTED)


# torchrun --tee/--redirects: every line of a rank's output prefixed with its role and local rank (`[default1]:`,
# log_line_prefix_template's default), before torch's own `[rank1]:` where that is there too.
_ROLE_PREFIX = re.compile(r"^\[(?P<role>[A-Za-z_][A-Za-z_-]*?)(?P<n>\d+)\]:(?P<rank>\[rank\d+\]:)?", re.M)
_ROLE_BEFORE_RANK = re.compile(r"^\[([A-Za-z_][A-Za-z_-]*?)\d+\]:\[rank\d+\]:", re.M)


def without_role_prefix(text: str) -> str:
    """The text with torchrun's `[default1]:` line prefixes read as rank labels: dropped before torch's own
    `[rank1]:`, else made `[rank1]: ` (the local rank: the rank on one node), so that the rank rules read a
    tee'd job's output as they read a plain one. Only torchrun's default role, or a role seen before a
    `[rankN]:` label, is read so: a program's own `[step1]:` lines stay as they are."""
    if "]:" not in text:
        return text
    roles = {"default"} | {m.group(1) for m in finditer(_ROLE_BEFORE_RANK, text)}
    if not any(f"[{role}" in text for role in roles - {"rank"}):
        return text  # no line of a role to read: the text as it is, without a call for each of its labels

    def relabelled(m: re.Match) -> str:
        if m["role"] not in roles or m["role"] == "rank":
            return m.group(0)
        return m["rank"] or f"[rank{m['n']}]: "

    return _ROLE_PREFIX.sub(relabelled, text)


# Python's exit status for an uncaught exception, and a logged one's sys.exit(1): mp.spawn reports it as it is
# (`process 1 terminated with exit code 1`), torchrun's entry too; a status of the program's own is another
UNCAUGHT_STATUS = 1


@dataclass(frozen=True)
class RankFailure:
    """One process's failure: its rank where known, its signal or its own text, where it stands in stderr."""

    rank: int | None
    at: int  # offset in stderr of its first evidence: the order the ranks failed in
    signal: str = ""
    text: str = ""  # its own output: the traceback(s) it printed, or faulthandler's dump
    pid: int | None = None
    ended_early: str = ""  # it ended while its peers still trained: the sentence that says so (text: a victim's)
    alone_at_barrier: str = ""  # it waited at a barrier its peers, which had ended, never called: the sentence
    unsent: bool = False  # its signal is one the launcher kills with, but the launcher never sent it to this rank
    code: int | None = None  # the exit status its launcher says it ended with (`terminated with exit code 3`)

    @property
    def is_consequence(self) -> bool:
        """A reaction to another failure: a launcher's kill, a broken connection to a dead peer."""
        if self.signal:
            return self.signal in LAUNCHER_SIGNALS and not self.unsent
        if lost_a_worker(self.text):  # `Connection reset by peer` from its own loader's dead worker
            return False
        return bool(search(_CONSEQUENCE, _first_exception(self.text) or self.text))


@dataclass(frozen=True)
class Recorded:
    """What the in-cell recorder kept of one rank's process: its pid, rank and when it ended (None: it did not
    end by itself: killed, or died by a signal)."""

    pid: int
    rank: int
    ended: float | None = None
    steps: int | None = None  # DDP's synchronised steps it ran (its forwards), else the batches it drew
    killed_children: tuple = ()  # ((pid, signal name), ...): its children a signal killed, unreaped at its end


def is_distributed(stderr: str, recorded: Sequence[Recorded] = ()) -> bool:
    """Whether the output is a distributed job's: a rank's label, a launcher's report, or the recorder's files."""
    return (
        bool(recorded) or "ChildFailedError" in stderr or any(search(pattern, stderr) for pattern in _DISTRIBUTED_WORDS)
    )


def root_failure(stderr: str, recorded: Sequence[Recorded] = ()) -> RankFailure | None:
    """The failure that came first and was no consequence of another, or None (no rank failed on its own)."""
    failures = _unsent_kills(_merged(_own_failures(stderr), _launcher_failures(stderr), stderr, recorded), stderr)
    failures = _printed_then_killed(failures, stderr)
    causes = [f for f in failures if not f.is_consequence]
    # A rank that lost its own loader worker may be a victim whose workers the launcher's kill took, where
    # the rank that died first by a signal of its own is told only in the launcher's report, printed last.
    died = any(f.signal and f.signal not in LAUNCHER_SIGNALS for f in causes)
    # a traceback a logger printed was handled: a rank killed by a signal its launcher never sent comes before it
    unsent = any(f.unsent for f in causes)
    causes.sort(
        key=lambda f: (
            died and not f.signal and lost_a_worker(f.text),
            unsent and not f.signal and _logged(f, stderr),
            f.at,
        )
    )
    if not causes:  # only reactions: a rank's own words, the first, say the most; else the first signal death
        # (a SIGKILL no launcher sent: the OOM killer). A collective's timeout before a peer's loss: the rank that
        # timed out ends, so its peer still in a collective loses it, and may say so first on a loaded box.
        causes = sorted(failures, key=lambda f: (bool(f.signal), not COLLECTIVE_TIMEOUT.search(f.text), f.at))
    if not causes:
        return None
    early = _ended_early(causes, recorded, stderr)
    if early is not None:
        return early
    first = causes[0]
    if first.rank is None and not first.signal:
        # An unlabelled exception (Hydra printed it): the rank whose process ended first, as the recorder saw;
        # not one its launcher says ended itself with a status of its own (sys.exit(3)), which is no exception's
        own_status = {f.rank for f in failures if f.code and f.code != UNCAUGHT_STATUS}
        ended = sorted(
            (r for r in recorded if r.ended is not None and r.rank not in own_status), key=lambda r: r.ended or 0.0
        )
        if ended:
            return RankFailure(ended[0].rank, first.at, text=first.text, pid=ended[0].pid)
    return first


def _printed_then_killed(failures: list[RankFailure], stderr: str) -> list[RankFailure]:
    """One failure where the only unlabelled traceback that is a cause came before the launcher's word of the one
    rank that died by a signal of its own with no word of its own (a kill torchrun never sent): that process
    printed it, then was killed (the ninety-third set's rank whose threading.excepthook printed a thread's
    KeyError, then SIGKILLed its own process). Its rank's death, told by what it printed. Not a traceback a logger
    printed under its message (`logging.exception`): a handled error, maybe another rank's (a review's rank 0 that
    logged a KeyError and went on while rank 1 was killed)."""
    printed = [f for f in failures if f.rank is None and not f.signal and _TRACEBACK in f.text and not f.is_consequence]
    if printed and _logged(printed[0], stderr):
        return failures
    deaths = [f for f in failures if f.rank is not None and f.signal and not f.is_consequence]
    if len(printed) != 1 or len(deaths) != 1 or deaths[0].text or printed[0].at > deaths[0].at:
        return failures
    death = deaths[0]
    if any(f.rank == death.rank and f is not death for f in failures):
        return failures
    told = replace(death, at=printed[0].at, text=printed[0].text)
    return [told if f is death else f for f in failures if f is not printed[0]]


def _unsent_kills(failures: list[RankFailure], stderr: str) -> list[RankFailure]:
    """A rank torchrun reports dead by SIGKILL that torchrun never sent a signal to (it logs each kill it sends,
    `Sending process PID closing signal SIGTERM`): killed from outside the job, as the kernel's OOM killer ends
    the largest process. That death is a cause, and its peer's lost connection the consequence."""
    if _TORCHRUN_ROOT not in stderr:
        return failures
    sent = {int(m.group(1)) for m in finditer(_TORCHRUN_SENDS, stderr)}
    return [
        replace(f, unsent=True) if f.signal == "SIGKILL" and f.pid is not None and f.pid not in sent else f
        for f in failures
    ]


# --- a rank that ended while its peers still trained ------------------------------


def _ended_early(failures: list[RankFailure], recorded: Sequence[Recorded], stderr: str) -> RankFailure | None:
    """The rank that ended first while its peers trained on, where every failure is a reaction to a peer
    gone (none a cause, none a signal): the first rank the recorder saw end with no failure of its own;
    without the recorder, a peer named by no one, where the launcher reports no other failure."""
    if not failures or any(not f.is_consequence for f in failures):
        return None
    victim = failures[0]
    failed = {f.rank for f in failures}
    ended = sorted((r for r in recorded if r.ended is not None), key=lambda r: r.ended or 0.0)
    first = next((r for r in ended if r.rank not in failed), None)
    # the peer may have ended before its launcher's kill came, or been ending as it came (a SIGTERM in the report)
    if not victim.signal and _waited_at_a_barrier(victim, first, recorded):
        return _alone_at_barrier(victim, first, failures[1:])
    if any(f.signal for f in failures):
        return None
    if first is not None:
        peers = [r for r in recorded if r.rank != first.rank]
        # A victim that names no rank may be the process that ended first itself: then a peer must end after it.
        # Else the order of the ends tells nothing: a rank that calls destroy_process_group closes its sockets
        # before its process writes its end, and its victim may write first.
        later = [r for r in peers if None not in failed or r.ended is None or r.ended > (first.ended or 0)]
        if later and _ended_after_timing_out(victim, first, recorded):
            return None  # it ended as its launcher stopped it, after the victim had waited it out
        if later:
            return RankFailure(
                first.rank, victim.at, text=victim.text, pid=first.pid, ended_early=_early_sentence(first, peers)
            )
        return None
    if recorded or not search(PEER_GONE, _first_exception(victim.text) or victim.text):
        return None
    if _TORCHRUN_ROOT in stderr and "<NO_OTHER_FAILURES>" not in stderr:
        return None  # torchrun names another failed rank: not one that ended cleanly
    who = "rank" if victim.rank is None else f"rank {victim.rank}"
    return RankFailure(
        None,
        victim.at,
        text=victim.text,
        ended_early=f"a peer of {who} ended (exit 0) while {who} still trained, which lost its connection; "
        "no launcher names another rank's failure (inject: true tells which rank, after how many steps)",
    )


# A barrier is where the ranks wait for one another, no step of training. A peer that ended (exit 0) having done
# no fewer steps is not early where a rank then waits at a barrier it alone calls (`if rank == 0: save()` with a
# dist.barrier() inside): that rank's barrier is the failure, and the place it was called from.
_BARRIER_CALL = re.compile(r'File "[^"\n]*distributed_c10d\.py", line \d+, in (?:monitored_)?barrier\n')


def _waited_at_a_barrier(victim: RankFailure, first: Recorded | None, recorded: Sequence[Recorded]) -> bool:
    told = _first_exception(victim.text) or victim.text  # its peer closed the connection; not a timeout's wait
    if not _BARRIER_CALL.search(victim.text) or not search(PEER_GONE, told) or search(COLLECTIVE_TIMEOUT, told):
        return False
    own = next((r.steps for r in recorded if r.rank == victim.rank), None)
    return first is None or first.steps is None or own is None or first.steps >= own


def _alone_at_barrier(victim: RankFailure, first: Recorded | None, others: list[RankFailure]) -> RankFailure:
    """`rank 0 waited at a barrier rank 1 never called: rank 1 had closed its connection and ended (exit 0)`."""
    who = "a rank" if victim.rank is None else f"rank {victim.rank}"
    ranks = [f.rank for f in others if f.rank is not None and f.rank != victim.rank]
    peer = f"rank {first.rank}" if first is not None else f"rank {ranks[0]}" if ranks else "its peer"
    ended = " and ended (exit 0)" if first is not None else ""
    said = f"{who} waited at a barrier {peer} never called: {peer} had closed its connection{ended}"
    return replace(victim, alone_at_barrier=said)


def _ended_after_timing_out(victim: RankFailure, first: Recorded, recorded: Sequence[Recorded]) -> bool:
    """A victim whose collective timed out waited for a peer that did not come, which a peer that had
    ended would have told at once (`Connection closed by peer`): a rank that ended after the victim's own
    end was stopped by the launcher (Lightning turns its SIGTERM into an exit 0), it did not end early."""
    if not search(COLLECTIVE_TIMEOUT, victim.text):
        return False
    own = next((r.ended for r in recorded if r.rank == victim.rank and r.ended is not None), None)
    return own is None or (first.ended or 0.0) > own


def _early_sentence(first: Recorded, later: Sequence[Recorded]) -> str:
    """`rank 1 ended (exit 0) after 5 steps; rank 0 was at step 6`."""
    head = f"rank {first.rank} ended (exit 0)"
    if first.steps is None:
        return (
            head + " while " + ", ".join(f"rank {r.rank}" for r in sorted(later, key=lambda r: r.rank)) + " trained on"
        )
    counted = [r for r in sorted(later, key=lambda r: r.rank) if r.steps is not None]
    peers = [f"rank {r.rank} was at step {r.steps}" for r in counted]
    return f"{head} after {first.steps} steps" + ("; " + ", ".join(peers) if peers else "")


# --- each rank's own output -------------------------------------------------------


def labelled_failures(stderr: str) -> dict[int, str]:
    """rank -> its own `[rankN]:` traceback, unlabelled: each rank that raised and said so."""
    return {f.rank: f.text for f in _own_failures(stderr) if f.rank is not None and _TRACEBACK in f.text}


def _own_failures(stderr: str) -> list[RankFailure]:
    """Failures in the ranks' own output: labelled `[rankN]:` blocks, then unlabelled tracebacks and
    faulthandler dumps (the launcher's own report left out)."""
    labelled: dict[int, list[str]] = {}
    first_at: dict[int, int] = {}
    plain_lines, offset = [], 0
    for line in stderr.splitlines(keepends=True):
        m = _RANK_PREFIX.match(line)
        if m:
            rank = int(m.group(1))
            labelled.setdefault(rank, []).append(m.group(2))
            first_at.setdefault(rank, offset)
            plain_lines.append(" " * (len(line) - 1) + "\n")  # blanked, so that offsets stay
        else:
            plain_lines.append(line)
        offset += len(line)
    found = [
        RankFailure(rank, first_at[rank], text=told)
        for rank, lines in labelled.items()
        if _TRACEBACK in (told := unmarked(unrich("\n".join(lines))))  # rich's box, loguru's marks: as Python's
    ]
    rest = unprefixed("".join(plain_lines), keep_offsets=True)  # a rank's logger's prefix on every line
    found += _not_logged(_tracebacks(_without_launcher_report(rest)), rest)
    found += _fatal_dumps(rest)
    found += _watchdog_dumps(_without_launcher_report(rest))
    return found


def _watchdog_dumps(text: str) -> list[RankFailure]:
    """faulthandler's watchdog dump (`Timeout (0:00:03)!`) of a process it ended: the last such dump, where no
    traceback comes after it (the launcher's own left out); a dump that repeats while the job goes on is none."""
    dumps = list(finditer(WATCHDOG_DUMP, text))
    if not dumps or _TRACEBACK in text[dumps[-1].end() :]:
        return []
    return [RankFailure(None, dumps[-1].start(), text=dumps[-1].group(0))]


# torchrun's own log lines (glog's prefix: `E1130 16:20:17.843000 13177 torch/distributed/...:1002] failed ...`)
_LAUNCHER_LOG_LINE = re.compile(r"^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ torch/distributed/\S+:\d+\].*\n?", re.M)


def without_launcher_report(text: str) -> str:
    """The ranks' own output: the text without the launcher's own exception and log lines (classify reads an
    option parser's refusal in it, which torchrun's lines after it would hide)."""
    return _LAUNCHER_LOG_LINE.sub("", _without_launcher_report(text))


def _without_launcher_report(text: str) -> str:
    """The text with the launcher's own exception blanked (same length: offsets stay)."""
    for marker in (_SPAWN_RAISED, re.compile(re.escape(_TORCHRUN_ROOT)), re.compile(r"ChildFailedError")):
        m = search(marker, text)
        if m:
            # the launcher's traceback that holds it starts at the last "Traceback" before it
            start = text.rfind(_TRACEBACK, 0, m.start())
            start = start if start != -1 else m.start()
            text = text[:start] + " " * (len(text) - start)
    return text


def _tracebacks(text: str) -> list[RankFailure]:
    """Each report of an exception: a traceback with the ones chained to it ('During handling of the above
    exception', 'The above exception was the direct cause'), as one failure of an unknown rank."""
    found: list[RankFailure] = []
    at = text.find(_TRACEBACK)
    while at != -1:
        end = _exception_end(text, at)
        # chained tracebacks follow within a few lines: the same report; so does a DataLoader worker's `Original
        # Traceback` right under its re-raise in the rank (the eighty-third set's rank whose worker raised)
        nxt = text.find(_TRACEBACK, end)
        while (
            nxt != -1
            and (_CHAINED.search(text[end:nxt]) or text[end:nxt].strip() == "Original")
            and (len(text[end:nxt].strip().splitlines()) <= 2)
        ):
            end = _exception_end(text, nxt)
            nxt = text.find(_TRACEBACK, end)
        found.append(RankFailure(None, at, text=text[at:end]))
        at = nxt
    return found


# multiprocessing's report of a child's uncaught exception: `Process SpawnProcess-1:`, then its traceback
_CHILD_UNCAUGHT = re.compile(r"^Process [^\n:]+:[ \t]*$", re.M)


def _not_logged(failures: list[RankFailure], text: str) -> list[RankFailure]:
    """failures without the tracebacks a logger printed under its message (`Global metadata is not found. Falling
    back to rank local metadata.`, then the FileNotFoundError it caught), where the ranks are multiprocessing's
    children whose uncaught exceptions it reports as `Process NAME:`: a logged one was handled, and the rank went
    on to fail otherwise (the eighty-fifth set's torch.distributed.checkpoint load, whose CheckpointException was
    told by the FileNotFoundError it logged first). Not where every such report is a consequence (a peer lost): the
    rank that logged its error then ended itself (`sys.exit(1)`), and what it logged is the cause."""
    reports = [f for f in failures if _CHILD_UNCAUGHT.fullmatch(_said_before(f, text))]
    if not reports or all(f.is_consequence for f in reports):
        return failures
    kept = []
    for failure in failures:
        if not _logged(failure, text) or _said_before(failure, text).rstrip().endswith(":"):
            kept.append(failure)
    return kept


def _logged(failure: RankFailure, text: str) -> bool:
    """Whether a logger printed the traceback under a message of its own (the line before it; a launcher's log line
    is none)."""
    said = _said_before(failure, text)
    return (
        bool(said.strip())
        and not said[:1].isspace()
        and not _LAUNCHER_LOG_LINE.match(said + "\n")
        and not (said.startswith(("Traceback", "Exception in thread", "Process ")))
    )


def _said_before(failure: RankFailure, text: str) -> str:
    """The line just before a failure's traceback: a logger's message, multiprocessing's `Process NAME:`, ..."""
    return text[: failure.at].rstrip("\n").rpartition("\n")[2]


def _exception_end(text: str, at: int) -> int:
    """The end of the exception line that closes the traceback starting at `at`."""
    pos = text.find("\n", at)
    while pos != -1:
        nl = text.find("\n", pos + 1)
        line = text[pos + 1 : nl if nl != -1 else len(text)]
        if line and not line[0].isspace() and not INTERLEAVED_HEAD.fullmatch(line):
            end = nl if nl != -1 else len(text)
            return _announced_lines_end(text, end) if line.rstrip().endswith(":") else end
        pos = nl
    return len(text)


_ANNOUNCED_AT_MOST = 8  # lines a message's first line announces (parsed.py reads as many)


def _announced_lines_end(text: str, end: int) -> int:
    """The end of what an exception line ending with a colon announces (`ValueError: ` of a message that starts
    with a newline, load_state_dict's `Error(s) in loading state_dict for Net:`): its next lines, to the first
    blank one, a traceback's head or a rank's label."""
    for _ in range(_ANNOUNCED_AT_MOST):
        if end >= len(text):
            break
        nl = text.find("\n", end + 1)
        line = text[end + 1 : nl if nl != -1 else len(text)]
        if not line.strip() or _TRACEBACK in line or _RANK_PREFIX.match(line):
            break
        end = nl if nl != -1 else len(text)
    return end


def _first_exception(text: str) -> str:
    """The exception line of the first traceback in text (the root of a chain)."""
    at = text.find(_TRACEBACK)
    if at == -1:
        return ""
    end = _exception_end(text, at)
    return text[text.rfind("\n", 0, end - 1) + 1 : end].strip()


def _fatal_dumps(text: str) -> list[RankFailure]:
    """faulthandler's dumps of a fatal signal (`Fatal Python error: Segmentation fault` and the stack after),
    less a DataLoader worker's (its rank reports the worker's death itself)."""
    found = []
    for m in finditer(_FATAL, text):
        sig = SIGNAL_TEXT.get(m.group(1))
        stop = text.find("\nExtension modules:", m.end())
        end = stop if stop != -1 and stop - m.end() < 20000 else min(len(text), m.end() + 4000)
        if sig and not _LOADER_WORKER.search(text, m.end(), end):
            found.append(RankFailure(None, m.start(), signal=sig, text=text[m.start() : end]))
    return found


# --- the launcher's report --------------------------------------------------------


def _launcher_failures(stderr: str) -> list[RankFailure]:
    """What torchrun or torch.multiprocessing says of each failed rank, at the place it says it."""
    found = []
    for m in finditer(_TORCHRUN_ENTRY, stderr):
        code = int(m.group("code"))
        message = "\n".join(line[2:] if line.startswith("  ") else line for line in m.group("message").splitlines())
        sig = m.group("sig") or ""
        if code < 0 and not sig:  # an older torchrun names no signal there, nor 2.13 one without a name
            sig = signal_name(-code)
        found.append(
            RankFailure(
                int(m.group("rank")),
                m.start(),
                signal=sig if code < 0 else "",
                text=message if _TRACEBACK in message else "",
                pid=int(m.group("pid")),
                # a rank's own sys.exit(3): its status. 1 is also an uncaught exception's, whose words tell more
                code=code if code > 1 else None,
            )
        )
    for m in finditer(_SPAWN_RAISED, stderr):
        end = stderr.find("\nSet the environment variable HYDRA_FULL_ERROR", m.end())
        text = stderr[m.end() : end if end != -1 else len(stderr)]
        found.append(RankFailure(int(m.group(1)), m.start(), text=text))
    for m in finditer(SPAWN_EXITED, stderr):
        status = int(m.group(3)) if m.group(3) else None
        found.append(RankFailure(int(m.group(1)), m.start(), signal=m.group(2) or "", code=status))
    for m in finditer(_SRUN_TASK, stderr):
        found.append(RankFailure(int(m.group(1)), m.start(), signal=SIGNAL_TEXT.get(m.group("text") or "", "")))
    return found


def _merged(
    own: list[RankFailure], launcher: list[RankFailure], stderr: str, recorded: Sequence[Recorded]
) -> list[RankFailure]:
    """The ranks' own failures, each labelled with its rank where the launcher or the recorder tells it; a
    launcher's entry that no own failure matches stands as it is (at the place of its report)."""
    by_pid = {r.pid: r.rank for r in recorded}
    first_dump = search(_FATAL, stderr)
    # (signal, pid, offset, whether the output's first backtrace came after its first dump)
    torch_pids = [
        (m.group(1), int(m.group(2)), m.start(), first_dump is not None and first_dump.start() < m.start())
        for m in finditer(_TORCH_FATAL, stderr)
    ]
    labelled = []
    # a rank its watchdog ended prints no label, and its launcher knows only its exit status: where one rank
    # ended so, the dump is its
    by_status = [e for e in launcher if e.rank is not None and not e.signal and not e.text]
    # the unlabelled tracebacks that are causes: two ranks that raised alike before any label (spawned ranks' failed
    # import) leave which printed first untold, and neither is given the rank mp.spawn happened to report
    unlabelled = [f for f in own if f.rank is None and not f.signal and _TRACEBACK in f.text and not f.is_consequence]
    for failure in own:
        if failure.rank is None and failure.signal:
            failure = _label_signal_death(failure, launcher, torch_pids, by_pid)
        elif failure.rank is None and len(by_status) == 1 and search(WATCHDOG_DUMP, failure.text):
            failure = replace(failure, rank=by_status[0].rank, pid=by_status[0].pid)
        elif failure.rank is None and not failure.signal and _TRACEBACK in failure.text:
            # a traceback printed before any process group (no label): the one rank its launcher says exited as
            # an uncaught exception does (status 1), not one that gave a status of its own (sys.exit(3))
            uncaught = [e for e in by_status if not e.code]
            if not uncaught and len(unlabelled) == 1 and not _CHILD_UNCAUGHT.search(stderr):
                # the one traceback, no process's report of its own uncaught one (`Process SpawnProcess-2:`: two ranks
                # failed at once), and the one rank mp.spawn says exited with status 1 (a logged error, then
                # sys.exit(1)) or aborted as it exited (a gloo group never destroyed: `terminate called without an
                # active exception` after that sys.exit(1), alone too, 1 run in 5)
                uncaught = [e for e in by_status if e.code == UNCAUGHT_STATUS] or [
                    e for e in launcher if e.rank is not None and e.signal == "SIGABRT" and not e.text
                ]
            if len(uncaught) == 1:
                failure = replace(failure, rank=uncaught[0].rank, pid=uncaught[0].pid)
        labelled.append(failure)
    told = {(f.rank, bool(f.signal)) for f in labelled if f.rank is not None}
    for entry in launcher:
        if entry.rank is None or (entry.rank, bool(entry.signal)) in told:
            continue
        labelled.append(entry)  # a rank that failed without a word of its own (exit status alone) counts too
        told.add((entry.rank, bool(entry.signal)))
    return labelled


def _label_signal_death(failure: RankFailure, launcher: list[RankFailure], torch_pids, by_pid) -> RankFailure:
    """A faulthandler dump names no rank: the launcher's entry of that signal, or torch's handler's pid that the
    recorder knows, does: the backtrace just after the dump (faulthandler's handler first, as inject orders them
    since 2026-12-01), or just before it where the output's first backtrace came before its first dump."""
    same_signal = [(pid, at) for sig, pid, at, after in torch_pids if sig == failure.signal]
    torch_after = bool(torch_pids) and torch_pids[0][3]
    near = [pid for pid, at in same_signal if at > failure.at][:1] if torch_after else []
    near = near or [pid for pid, at in same_signal if at <= failure.at][-1:]
    if near and near[0] in by_pid:
        return RankFailure(by_pid[near[0]], failure.at, failure.signal, failure.text, near[0])
    same = [e for e in launcher if e.signal == failure.signal and e.rank is not None]
    if len({e.rank for e in same}) == 1:
        return RankFailure(same[0].rank, failure.at, failure.signal, failure.text, same[0].pid)
    return failure


def recorded_ranks(cell_dir: str) -> list[Recorded]:
    """What the in-cell recorder (crashmatrix.incell.rank_report) left in the cell directory."""
    return [
        Recorded(r["pid"], r["rank"], r.get("ended"), steps_of(r.get("metrics")), killed_of(r.get("killed_children")))
        for r in recorder.read(cell_dir)
    ]


def killed_of(children) -> tuple:
    """((pid, signal name), ...) from a recorder's `killed_children` ({pid: signal}), ordered by pid."""
    if not isinstance(children, dict):
        return ()
    return tuple(sorted((int(pid), str(sig)) for pid, sig in children.items() if str(pid).isdigit()))


def steps_of(metrics) -> int | None:
    """A rank's steps from its figures: DDP's synchronised forwards where it counted them, else batches drawn."""
    if not isinstance(metrics, dict):
        return None
    for key in (recorder.DDP_STEPS, "steps"):
        if isinstance(metrics.get(key), int):
            return metrics[key]
    return None
