"""A distributed cell that timed out: which rank the others wait for (controller side; never imports torch).

In a hung DDP job the ranks that wait inside a collective are victims; the one that never arrived, the
straggler, is the cause. Each process of the cell's tree is known by its rank (`RankOf`): the rank it
wrote under inject (incell/rank_report.py: spawn's ranks, a main process made rank 0 in-process) or
the one its environment gives it (incell/rank.py: torchrun, Slurm tasks, Lightning's re-executed
script); a process whose parent has the same rank (a DataLoader worker) is that rank's helper.

A rank's main thread is inside a collective when its stack between the program's own innermost frame
and the top holds torch.distributed (a c10d collective, `init_process_group`'s rendezvous, a `wait` on a
Work where py-spy shows native frames), DistributedDataParallel (its forward's buffer and bucket
syncs, its construction's broadcast), or autograd's backward, where DDP's reducer waits for the
gradients' all_reduce. (A backward that runs for the whole timeout without waiting on the others is
not one a timeout catches; py-spy's native frames, where present, show c10d:: or gloo:: under it.)
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection
from dataclasses import dataclass

from crashmatrix.incell import rank_report
from crashmatrix.incell.rank import rank_of
from crashmatrix.process import supervise
from crashmatrix.verdict.ranks import steps_of
from crashmatrix.verdict.stacks import (
    Frame,
    ProcessStacks,
    Thread,
    helper_frame,
    is_own,
    is_torch_file,
    main_thread,
    main_wait,
    place_text,
    user_frame,
)

# --- which process is which rank -------------------------------------------------


@dataclass(frozen=True)
class RankOf:
    rank: int
    own: bool  # the rank's own process; False: a helper under it (a DataLoader worker, ...)
    ended: bool = False  # under inject, it wrote its end: its program is done, its process not yet gone
    steps: int | None = None  # ... after so many steps (DDP's synchronised ones, else batches drawn)


def written_ranks(cell_dir: str) -> dict[int, int]:
    """pid -> rank, as the ranks wrote it under inject."""
    return {record["pid"]: record["rank"] for record in rank_report.read(cell_dir)}


def _ended(cell_dir: str) -> dict[int, int | None]:
    """pid -> its steps, for each rank that wrote its end under inject."""
    return {r["pid"]: steps_of(r.get("metrics")) for r in rank_report.read(cell_dir) if r.get("ended") is not None}


def spawned(p: ProcessStacks) -> bool:
    """Whether torch's spawn started the process as one of its ranks: its main thread runs `_wrap`, in
    this process (a forked child's stack goes on down into its parent's: a `_bootstrap` comes first)."""
    thread = main_thread(p.threads, p.pid)
    for f in thread.frames if thread else ():
        if f.func == "_bootstrap":
            return False
        if f.func == "_wrap" and f.file.endswith("multiprocessing/spawn.py"):
            return True
    return False


def ranks_of(
    pids: list[int],
    cell_dir: str,
    spawned: Collection[int] = (),
    *,
    stats: dict[int, tuple[int, int]] | None = None,
    environs: dict[int, dict[str, str]] | None = None,
) -> dict[int, RankOf]:
    """Each pid of the tree with a rank: its own, or the rank of its nearest ancestor that has one.

    A rank by what it wrote, else by its environment, else (`spawned`: torch's spawn started it, and it
    wrote nothing: no inject, or it drew no batch yet) by its place among its parent's spawned children
    in the order they started, which is the index spawn gave each. stats and environs: the processes'
    (supervise.process_stats, supervise.environ) as read while they lived, where they may have ended since."""
    written = written_ranks(cell_dir)
    stats = supervise.process_stats() if stats is None else stats
    parent = {pid: ppid for pid, (ppid, _start) in stats.items()}
    environ = {pid: (environs or {}).get(pid) or supervise.environ(pid) for pid in pids}
    direct: dict[int, int | None] = {pid: written.get(pid, rank_of(environ[pid])) for pid in pids}
    unnamed = sorted((p for p in spawned if direct.get(p) is None), key=lambda p: (stats.get(p, (0, 0))[1], p))
    for ppid in {parent.get(p) for p in unnamed}:
        for index, pid in enumerate(p for p in unnamed if parent.get(p) == ppid):
            direct[pid] = index
    out: dict[int, RankOf] = {}
    ended = _ended(cell_dir)
    for pid in pids:
        rank, up = direct[pid], parent.get(pid)
        above = direct.get(up) if up is not None else None
        if rank is not None and above != rank:
            out[pid] = RankOf(rank, True, pid in ended, ended.get(pid))
            continue
        seen = set()
        while up is not None and up in direct and up not in seen:
            seen.add(up)
            if direct[up] is not None:
                break
            up = parent.get(up)
        served = direct.get(up) if up is not None else None
        if served is not None:
            out[pid] = RankOf(served, False)
    return out


# --- what a rank's main thread waits in ----------------------------------------

_BACKWARD = {("graph.py", "_engine_run_backward"), ("__init__.py", "backward"), ("_tensor.py", "backward")}
_POINT_TO_POINT = frozenset(
    {"send", "recv", "isend", "irecv", "batch_isend_irecv", "send_object_list", "recv_object_list"}
)
_NATIVE_COLLECTIVE = re.compile(r"\b(?:c10d|gloo|nccl\w*)::", re.I)
_NATIVE_FRAME = re.compile(r"^\s{4}(\S.*?) \(([^()]+?)\)$")


def _is_distributed(frame: Frame) -> bool:
    return "/torch/distributed/" in frame.file.replace("\\", "/")


def _is_ddp(frame: Frame) -> bool:
    return frame.file.replace("\\", "/").endswith("nn/parallel/distributed.py")


def _is_backward(frame: Frame) -> bool:
    return is_torch_file(frame.file) and (os.path.basename(frame.file), frame.func) in _BACKWARD


def native_frames(pyspy: str, pid: int) -> list[str]:
    """The native function names (no line number) of the main thread in a py-spy dump, innermost first."""
    names: list[str] = []
    inside = False
    for line in pyspy.splitlines():
        if line.startswith("Thread "):
            inside = line.split()[1] == str(pid)
            continue
        m = _NATIVE_FRAME.match(line) if inside else None
        if m and not re.search(r":\d+$", m.group(2)):
            names.append(m.group(1))
    return names


def own_frame(thread: Thread | None) -> Frame | None:
    """The program's own innermost frame (not a package's: Lightning's loops are not the program); else
    the innermost frame that is not torch's or the standard library's."""
    return next((f for f in (thread.frames if thread else ()) if is_own(f)), None) or user_frame(thread)


def collective(p: ProcessStacks) -> str:
    """`all_reduce`, `DDP forward`, `DDP backward`, `init_process_group`...: the collective the process's
    main thread waits in, or "" where it is in none."""
    thread = main_thread(p.threads, p.pid)
    frames = thread.frames if thread else []
    own = own_frame(thread)
    below = frames[: frames.index(own)] if own in frames else frames  # innermost first, up to the program's line
    natives = native_frames(p.pyspy, p.pid)
    ddp = [f for f in below if _is_ddp(f)]
    if ddp:
        outer = ddp[-1].func
        return "DDP forward" if any(f.func == "forward" for f in ddp) else f"DDP {outer}"
    c10d = [f for f in below if _is_distributed(f)]
    if c10d:
        named = [f for f in c10d if f.file.endswith("distributed_c10d.py")] or [
            f for f in c10d if f.func not in ("wrapper", "<lambda>")
        ]
        return (named or c10d)[-1].func
    if any(_is_backward(f) for f in below):
        return "DDP backward's all_reduce"
    waits = next((n for n in natives if _NATIVE_COLLECTIVE.search(n)), "")
    if waits:
        return re.sub(r"\(.*", "", waits.split("::", 1)[1] if waits.lower().startswith("c10d::") else waits)
    return ""


def _place(frame: Frame | None, thread: Thread | None) -> str:
    """`app/train.py:58 in main`: the program's frame by its path from the app's root, as every place."""
    return place_text(frame, thread.frames if thread else [frame]) if frame else ""


_FOLDERS = re.compile(r"[^\s()]*/(?=[^\s/()]+:\d+\b)")


def _brief(text: str) -> str:
    """The error's words for a place: its file name alone (`ddp_hang.py:20 in main`), as the error names every
    frame; `where` has the path."""
    return _FOLDERS.sub("", text)


def _grouped(ranks: list[int]) -> str:
    """`rank 1`, `ranks 0, 2, 3`."""
    return f"rank {ranks[0]}" if len(ranks) == 1 else "ranks " + ", ".join(map(str, ranks))


@dataclass(frozen=True)
class RankState:
    rank: int
    waits_in: str  # the collective, "" where outside any
    place: str  # `train.py:58 in main`: the program's own innermost frame
    wait: str  # main_wait's words where outside any collective (`waits in DataLoader _get_data (...)`)
    stacked: bool = True  # False: the process gave no stacks (no inject, no py-spy), so no place is known
    ended: str = ""  # its program is done but its process lives on: `ended after 5 steps` (under inject)


def state(p: ProcessStacks, rank: int | RankOf) -> RankState:
    """Where rank `rank` (a RankOf: with what it wrote of its end) is, from its process's stacks."""
    of = rank if isinstance(rank, RankOf) else RankOf(rank, True)
    thread = main_thread(p.threads, p.pid)
    ended = "" if not of.ended else "ended" + ("" if of.steps is None else f" after {of.steps} steps")
    where = collective(p)
    return RankState(of.rank, where, _place(own_frame(thread), thread), main_wait(thread), bool(p.threads), ended)


def summarize(states: list[RankState], helpers: list[tuple[int, ProcessStacks]]) -> tuple[str, str]:
    """(for `error`, for `where`): the straggler(s) with their places, then the ranks waiting in a collective,
    grouped by where they wait; stuck helpers (a rank's DataLoader worker in the program's code) after. `where`
    names each rank's program frame as every place is named: `rank 1 app/data.py:8 in load; rank 0 in
    all_reduce at app/train.py:17 in run`."""
    long, short = [], []
    outside = [s for s in states if (s.stacked or s.ended) and not s.waits_in]
    inside = [s for s in states if s.waits_in]
    for s in sorted(outside, key=lambda s: s.rank):
        if s.ended:  # a rank that left its loop early (uneven inputs) and has yet to exit: its peers wait for it
            at = f"{s.ended}, its process not yet exited"
        elif s.wait.startswith("waits in "):
            at = s.wait
        else:
            at = f"at {s.place}" if s.place else "at an unknown place"
        tail = ", outside any collective" if inside else ""
        long.append(f"rank {s.rank} {_brief(at)}{tail}")
        short.append(f"rank {s.rank} {at.removeprefix('at ')}")
    groups: dict[tuple[str, str], list[int]] = {}
    for s in sorted(inside, key=lambda s: s.rank):
        groups.setdefault((s.waits_in, s.place), []).append(s.rank)
    for (waits_in, place), ranks in groups.items():
        line = place.split(" in ")[0]
        where = f" ({line})" if line else ""
        verb = "waits" if len(ranks) == 1 else "wait"
        long.append(f"{_grouped(ranks)} {verb} in {waits_in}{_brief(where)}")
        # `where` gives the program's frame as every place does (`app/train.py:17 in run`), after the collective
        short.append(f"{_grouped(ranks)} in {waits_in}" + (f" at {place}" if place else ""))
    if inside and not outside and all(s.stacked for s in states):
        # a send or recv is a wait for one peer, not a collective: said as what it is
        p2p = any(s.waits_in in _POINT_TO_POINT for s in inside)
        long.insert(
            0, "every rank waits in a collective or for a peer's message" if p2p else "every rank waits in a collective"
        )
    unknown = sorted(s.rank for s in states if not s.stacked and not s.ended)
    if unknown:
        long.append(f"{_grouped(unknown)}: no stacks")
    threads = [(rank, p, main_thread(p.threads, p.pid)) for rank, p in helpers]
    stuck = [(rank, p, t, f) for rank, p, t in threads if (f := helper_frame(t)) is not None]
    for rank, p, t, f in stuck[:2]:
        word = "worker" if p.role == "DataLoader worker" else p.role
        long.append(f"{word} {p.pid} of rank {rank} in {f.short()}")
        short.append(f"{word} of rank {rank} {_place(f, t)}")
    return "; ".join(long), "; ".join(short)
