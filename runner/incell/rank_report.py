"""Each rank of a distributed cell says who it is and, at its end, what it measured (under inject).

A distributed cell's main process is often not a rank at all (torchrun's agent, the parent of
torch.multiprocessing.spawn or Lightning's ddp_spawn), so what it measures of itself is the launcher's:
no batches, the agent's memory. Every rank therefore writes `<cell dir>/.ranks/<pid>.json`:

- `{"pid": P, "rank": N}` as soon as it knows its rank (at start for torchrun's ranks and Lightning's re-executed
  script; as multiprocessing starts a forked rank; at its first DataLoader pass for a spawned rank, whose
  process object multiprocessing unpickles only after start-up, and for a main process that becomes
  rank 0 later, as Lightning's ddp does): the controller's forensics name a hung process by it where its
  environment does not;
- `{"pid": P, "rank": N, "metrics": {...}, "ended": T}` when the rank ends (atexit, or multiprocessing's own
  exit for a spawned rank, which may never run atexit): the controller gives rank 0's speed and the largest
  peak RSS, and the verdict takes the rank whose process ended first for the one whose unlabelled traceback
  came first (crashmatrix.verdict.ranks). A rank that dies by a signal writes no end: the launcher's report
  or the fatal-signal line in stderr tells it.

A rank's children that a signal killed and that nobody has reaped yet (`killed_children`: {pid: signal}) are
in its end too, and the cell's main process's in its report.json (crashmatrix.incell.injection): a
DataLoader worker SIGKILLed (the OOM killer) leaves its rank, or a single process, at times with no word of
the signal, only `ConnectionResetError` from the worker's broken connection. They are read from /proc (a zombie's
wait status) as multiprocessing's exit begins, before it reaps them; reading reaps nothing.

A rank's `steps` are the batches it drew; under DDP its synchronised steps are counted too (`ddp_steps`: the
forwards that set up a gradient all_reduce), since a rank that leaves its loop early has drawn the batch it
never trained on: the verdict on a rank that ended while its peers still trained tells them by these.

Observe only: nothing is caught, printed (but a file that cannot be written) or changed. The controller
reads the folder (`read`: rundir/rank_speed.py, verdict/ranks.py, verdict/straggler.py) and removes it
once the run's row is made. Standard library only.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable

from .atomic import write_json_atomic
from .rank import rank_of, spawned_rank

DIR_NAME = ".ranks"
DDP_STEPS = "ddp_steps"  # the metric: this process's synchronised DDP steps

# This process's rank once it is known (None: not a rank, or not yet known).
_rank: int | None = None
# {pid: signal name} of this process's children a signal killed, seen as multiprocessing's exit began.
_killed_children: dict[str, str] = {}


def rank_dir(cell_dir: str) -> str:
    """Where a cell's ranks write their files, one per pid."""
    return os.path.join(cell_dir, DIR_NAME)


def _path() -> str | None:
    cell_dir = os.environ.get("CRASHMATRIX_CELL_DIR")
    return os.path.join(rank_dir(cell_dir), f"{os.getpid()}.json") if cell_dir else None


def _write(content: dict) -> None:
    path = _path()
    if path is None:
        return
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_json_atomic(path, content, durable=False)
    except Exception as e:  # the program goes on, and ends, as it would without us
        print(f"crashmatrix inject: rank file {path} not written: {type(e).__name__}: {e}", file=sys.stderr)


def become(rank: int, metrics: Callable[[], dict], on_exit: Callable[[Callable[[], None]], object]) -> None:
    """This process is rank `rank`: say so now, and register (with on_exit) the writing of its metrics."""
    global _rank
    if _rank is not None:
        return
    _rank = rank
    _write({"pid": os.getpid(), "rank": rank})
    pid = os.getpid()

    def at_end() -> None:
        if os.getpid() != pid:  # a forked child inherits the handler
            return
        try:
            measured = metrics()
        except Exception as e:
            measured = {}
            print(f"crashmatrix inject: rank {rank}'s metrics not read: {type(e).__name__}: {e}", file=sys.stderr)
        end = {"pid": pid, "rank": rank, "metrics": measured, "ended": time.time()}
        killed = killed_children_at_exit()
        _write({**end, "killed_children": killed} if killed else end)

    on_exit(at_end)


def killed_children() -> dict[str, str]:
    """{pid: signal name} of this process's unreaped children that a signal killed (zombies: /proc's wait
    status of each, field 52 of its stat). {} where /proc cannot tell; it never raises."""
    try:
        return _killed_children_now()
    except Exception:  # the program ends as it would without us
        return {}


# A child the kernel is tearing down (PF_EXITING, in /proc's stat flags) that is no zombie yet: a SIGKILLed
# DataLoader worker's sockets close before it ends, so its main process can have learnt of it (a
# ConnectionResetError) and be exiting while the worker's own exit, preempted on a busy machine, is unfinished.
_PF_EXITING = 0x4
_DYING_WAIT_S = 5.0  # the most the exit waits for such children: milliseconds, seconds on a loaded box


def _killed_children_now() -> dict[str, str]:
    me = os.getpid()
    found: dict[str, str] = {}
    try:
        threads = os.listdir(f"/proc/{me}/task")
    except OSError:
        return found
    dying = []
    for tid in threads:
        try:
            with open(f"/proc/{me}/task/{tid}/children", "rb") as f:
                children = f.read().decode("ascii").split()
        except OSError:
            continue
        for child in children:
            fields = _stat(child)
            if fields is None:
                continue
            if fields[0] == b"Z":
                _note_signal(found, child, fields)
            elif fields[6].isdigit() and int(fields[6]) & _PF_EXITING:
                dying.append(child)
    deadline = time.monotonic() + _DYING_WAIT_S
    for child in dying:
        while time.monotonic() < deadline:
            fields = _stat(child)
            if fields is None:
                break
            if fields[0] == b"Z":
                _note_signal(found, child, fields)
                break
            time.sleep(0.005)
    return found


def _stat(pid: str) -> list[bytes] | None:
    """A process's /proc stat fields from its state on (field 3), or None where they cannot be read."""
    try:
        # bytes: the name in parentheses is the process's own (cut at 15 bytes, maybe mid-character)
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields if len(fields) >= 50 else None


def _note_signal(found: dict[str, str], pid: str, fields: list[bytes]) -> None:
    """found[pid]: the signal that killed the zombie, by its wait status (field 52, since Linux 3.5)."""
    import signal

    if not fields[49].isdigit():
        return
    status = int(fields[49])
    if os.WIFSIGNALED(status):
        try:
            found[pid] = signal.Signals(os.WTERMSIG(status)).name
        except ValueError:
            found[pid] = f"SIG{os.WTERMSIG(status)}"


def note_killed_children() -> None:
    """Keep killed_children() as multiprocessing's exit begins (its finalizers run before it joins, and so
    reaps, the children), for the end of a rank or of the cell's main process, which atexit may write after
    that."""
    _killed_children.update(killed_children())


def killed_children_at_exit() -> dict[str, str]:
    """killed_children() as kept when multiprocessing's exit began, else as now."""
    return _killed_children or killed_children()


def from_environment(metrics: Callable[[], dict], on_exit) -> None:
    """A rank by its environment (torchrun, Slurm tasks, Lightning's re-executed script)."""
    rank = rank_of(os.environ)
    if rank is not None:
        become(rank, metrics, on_exit)


def from_multiprocessing(metrics: Callable[[], dict], on_exit=None) -> None:
    """A rank where torch's spawn started this process (`_wrap(fn, i, ...)` is its target). Asked as
    multiprocessing starts a forked process (its after-fork hooks; a spawned one runs none), at a spawned
    one's first DataLoader pass, and at its exit. By default its metrics are written by multiprocessing's
    own exit function, which runs in the child after its target returns or raises (a forked child never
    runs atexit)."""
    import multiprocessing.process
    import multiprocessing.util

    rank = spawned_rank(multiprocessing.process.current_process())
    if rank is not None:
        become(rank, metrics, on_exit or (lambda write: multiprocessing.util.Finalize(None, write, exitpriority=0)))


def from_group(metrics: Callable[[], dict], on_exit) -> None:
    """A rank of a group the program started itself, with no launcher's environment (its own multiprocessing
    processes, each given its rank as an argument): its rank in the default process group, asked at its end,
    where the group is still there and this process made it: a forked child (a DataLoader worker, a pool's) finds
    its parent's group in the memory it was forked with (note_inherited_group, as it starts)."""
    rank = None if _group_inherited else _group_rank()
    if rank is None:
        return
    if _group_size() == 1 and os.environ.get("CRASHMATRIX_INJECT_ROOT") == str(os.getpid()):
        # the cell's own main process in a world of one is no distributed job: it made the group for a library's
        # sake (the ninety-ninth held-out set's Hydra job), and is no rank 0 of anything
        return
    become(rank, metrics, on_exit)


_group_inherited = False  # this process was forked with a default process group already made


def note_inherited_group() -> None:
    """Called as a forked child starts: whether it inherited its parent's process group."""
    global _group_inherited
    _group_inherited = _group_rank() is not None


def _group_size() -> int | None:
    return _asked_of_the_group("get_world_size")


def _group_rank() -> int | None:
    return _asked_of_the_group("get_rank")


def _asked_of_the_group(question: str) -> int | None:
    """torch.distributed's answer about the default process group (its rank, its size), where the program made one;
    None where it made none, or the answer is no count."""
    dist = sys.modules.get("torch.distributed")
    try:
        got = getattr(dist, question)() if dist is not None and dist.is_available() and dist.is_initialized() else None
    except Exception:  # the program goes on as it would without us
        return None
    return got if isinstance(got, int) and got >= 0 else None


class _SyncedForwards:
    """DistributedDataParallel's own `require_forward_param_sync`, kept in the instance as torch keeps it,
    counted as torch sets it: True at the end of each forward that prepares the gradients' all_reduce
    (grad enabled, not under no_sync()), once at construction too, which is not a step. A data descriptor
    on the class: no frame of ours is on the stack while DDP runs."""

    name = "require_forward_param_sync"
    count = 0
    used = False

    def __get__(self, ddp, owner=None):
        if ddp is None:
            return self
        try:
            return vars(ddp)[self.name]
        except KeyError:
            raise AttributeError(self.name) from None

    def __set__(self, ddp, value) -> None:
        if value and self.name in vars(ddp):
            type(self).count += 1
        type(self).used = True
        vars(ddp)[self.name] = value


def count_ddp_steps(module) -> None:
    """Count the synchronised steps of every DistributedDataParallel (module: torch.nn.parallel.distributed)."""
    module.DistributedDataParallel.require_forward_param_sync = _SyncedForwards()


def ddp_steps() -> int | None:
    """This process's synchronised DDP steps, or None where it built no DistributedDataParallel."""
    return _SyncedForwards.count if _SyncedForwards.used else None


def known() -> bool:
    return _rank is not None


def read(cell_dir: str) -> list[dict]:
    """The records the cell's ranks left, one per process (controller side, at the cell's end)."""
    folder = rank_dir(cell_dir)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    found = []
    for name in names:
        if not name.endswith(".json") or name.startswith("."):
            continue
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                record = json.load(f)
        except (OSError, ValueError):
            continue
        if isinstance(record, dict) and isinstance(record.get("pid"), int) and isinstance(record.get("rank"), int):
            found.append(record)
    return found
