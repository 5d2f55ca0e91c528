"""A rank's collective timed out: where the rank it waited for was (controller side; never imports torch).

gloo's `Timed out waiting 5000ms for recv operation to complete`, NCCL's watchdog `caught collective
operation timeout`, a store's `Timed out ... waiting for clients`: the rank that says so failed first, and
its launcher's report names it as the root cause, but it is the victim. The rank it waited for was
elsewhere (a rank-1-only download, a stuck read, a rank-dependent branch), and the launcher then stopped
it with SIGTERM, where, under inject, each rank wrote its stacks (incell/stackdump.py). From those the
row says what a hang's row says (verdict/straggler.py): the rank outside any collective at its place,
the ranks waiting in one. The row is then about that rank, and its stacks go to stacks.txt.
"""

from __future__ import annotations

import dataclasses
import os
import re

from crashmatrix.incell.stackdump import dumped
from crashmatrix.verdict import ranks, straggler
from crashmatrix.verdict.classify import Verdict
from crashmatrix.verdict.exception_place import last_traceback
from crashmatrix.verdict.signature import mask
from crashmatrix.verdict.stacks import ProcessStacks, Thread, is_programs, parse_faulthandler


def is_collective_timeout(error: str) -> bool:
    return bool(ranks.COLLECTIVE_TIMEOUT.search(error))


def names_straggler(error: str) -> bool:
    """A row's error of a collective timeout that names the rank the others waited for (its own code's
    place, not torch's: the bug report is the program's)."""
    return is_collective_timeout(error) and ", outside any collective" in error


def names_desync(error: str) -> bool:
    """A row's error of a collective timeout where every rank waited in a collective: different ones, or one
    at different places (the program's own branches; the bug report is the program's)."""
    return is_collective_timeout(error) and "; every rank waits in a collective" in error


def at_collective_timeout(
    verdict: Verdict, where: str, cell_dir: str, stderr: str = "", kept: str = ""
) -> tuple[Verdict, str]:
    """The verdict and `where` of a rank whose collective timed out, with its peers' places: where they left
    stacks as they were stopped, or where their own collective timed out too (stderr: the ranks' output);
    unchanged where neither is known. kept: the stacks.txt a run wrote of them (`crashmatrix diagnose` of the
    cell), read instead of the cell's dumps, and not written again."""
    if verdict.rank is None or not is_collective_timeout(verdict.error) or _programs_store_wait(verdict):
        return verdict, where
    if kept or not cell_dir:  # a log's (diagnose): what the run kept of the stopped ranks, if anything
        peers = _kept_ranks(kept, verdict.rank)
    else:
        peers = _stopped_ranks(cell_dir, verdict.rank)
    stopped = {rank for rank, _p in peers} | {verdict.rank}
    also = _waiting_ranks(ranks.labelled_failures(stderr), stopped)
    if not peers and not also:
        return verdict, where
    states = [_timed_out_state(verdict.rank, verdict.told, verdict.error), *also]
    states += [straggler.state(p, rank) for rank, p in peers]
    long, short = straggler.summarize(states, [])
    if peers and not kept:
        _write_stacks(cell_dir, peers)
    rank = _only_straggler(states)
    return (
        dataclasses.replace(
            verdict,
            error=f"{verdict.error}; {long}",
            signature=f"{verdict.signature}: {mask(short)}",
            rank=verdict.rank if rank is None else rank,
            by_message=False,  # signed by the peers' places, not by the rank's own
        ),
        short,
    )


def _programs_store_wait(verdict: Verdict) -> bool:
    """A store's wait that timed out at the program's own call (`store.wait(["eval/done"])` on a TCPStore it made):
    no collective, no peer outside one; the key it waited for never came (the forty-third set's
    dx_store_key_never_set: the other rank had set another key and slept). A rendezvous's or a collective's
    timeout is raised in torch's own frames."""
    frames, exception = last_traceback(verdict.told or verdict.error, verdict.error)
    return "DistStoreError" in exception and bool(frames) and is_programs(frames[0][0])


def _stopped_ranks(cell_dir: str, failed: int) -> list[tuple[int, ProcessStacks]]:
    """(rank, its stacks) of every other rank that wrote stacks as it was stopped, by rank."""
    found = []
    for pid, rank in straggler.written_ranks(cell_dir).items():
        if rank == failed:
            continue
        text = dumped(cell_dir, pid)
        threads = _first_dump(parse_faulthandler(text))
        # a dump with no Python frame (`Garbage-collecting`, `<no Python frame>`): the rank was already ending
        # when asked, past the code it waited in; its own traceback, if it printed one, tells where that was
        if any(thread.frames for thread in threads):
            found.append((rank, ProcessStacks(pid, "", faulthandler=text, threads=threads)))
    return sorted(found, key=lambda item: item[0])


# _write_stacks's head of a rank: `=== pid 4242 (rank 1), once the job had failed`
_KEPT_HEAD = re.compile(r"^=== pid (?P<pid>\d+) \(rank (?P<rank>\d+)\), once the job had failed$", re.M)


def is_kept(text: str) -> bool:
    """Whether text is the stacks.txt this module wrote of a failed job's other ranks."""
    return bool(text.startswith("=== pid ") and _KEPT_HEAD.match(text))


def _kept_ranks(text: str, failed: int) -> list[tuple[int, ProcessStacks]]:
    """(rank, its stacks) of each rank the stacks.txt this module wrote holds, but the one that failed."""
    heads = list(_KEPT_HEAD.finditer(text))
    found = []
    for head, after in zip(heads, [*heads[1:], None]):
        dump = text[head.end() : after.start() if after else len(text)]
        threads = _first_dump(parse_faulthandler(dump))
        if int(head["rank"]) != failed and any(thread.frames for thread in threads):
            found.append((int(head["rank"]), ProcessStacks(int(head["pid"]), "", faulthandler=dump, threads=threads)))
    return sorted(found, key=lambda item: item[0])


def _first_dump(threads: list[Thread]) -> list[Thread]:
    """The threads of the file's first dump: asked before the kill, a survivor may write another as its SIGTERM
    ends it, whose threads repeat the first's."""
    seen: set[str] = set()
    for i, thread in enumerate(threads):
        if thread.ident in seen:
            return threads[:i]
        seen.add(thread.ident)
    return threads


def _waiting_ranks(failures: dict[int, str], stopped: set[int]) -> list[straggler.RankState]:
    """The ranks not stopped whose own traceback says they waited in a collective: one in another collective
    (a desync: one in barrier, one in all_reduce) times out too, each in its own; or, on a loaded box, it
    entered its collective later than the rank that timed out and lost that peer first, as it ended
    (gloo's `Connection closed by peer`, raised in the collective it waited in, which names it)."""
    states = []
    for rank, text in sorted(failures.items()):
        if rank in stopped:
            continue
        if is_collective_timeout(text):
            states.append(_timed_out_state(rank, text))
        elif ranks.PEER_GONE.search(text) and (lost := _raised_state(rank, text)).waits_in:
            states.append(lost)
    return states


def _timed_out_state(rank: int, traceback: str, error: str = "") -> straggler.RankState:
    """A rank whose collective timed out, from its own traceback: where it waited."""
    found = _raised_state(rank, traceback, error)
    return found if found.waits_in else dataclasses.replace(found, waits_in="a collective")


def _raised_state(rank: int, traceback: str, error: str = "") -> straggler.RankState:
    """Where a rank was as it raised, from its own traceback: the collective it raised in, if any."""
    frames, _exception = last_traceback(traceback, error)
    raised = ProcessStacks(0, "", threads=[Thread("0", [frame for frame, _code in frames])])
    return straggler.state(raised, straggler.RankOf(rank, True))


def _only_straggler(states: list[straggler.RankState]) -> int | None:
    outside = [s.rank for s in states if s.stacked and not s.waits_in]
    return outside[0] if len(outside) == 1 else None


def _write_stacks(cell_dir: str, peers: list[tuple[int, ProcessStacks]]) -> None:
    from crashmatrix.verdict.forensics import STACKS_FILE

    parts = [
        f"=== pid {p.pid} (rank {rank}), once the job had failed\n{p.faulthandler.rstrip()}\n\n" for rank, p in peers
    ]
    try:
        with open(os.path.join(cell_dir, STACKS_FILE), "w", encoding="utf-8") as f:
            f.write("".join(parts))
    except OSError:
        pass
