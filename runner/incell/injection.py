"""What `inject: true` adds inside an unmodified program, beyond the process knobs (knobs.apply):

- the DataLoader knobs are forced on every torch.utils.data.DataLoader it builds (subclasses
  and loaders Lightning re-creates go through DataLoader.__init__ too), the DDP knobs on every
  torch.nn.parallel.DistributedDataParallel, in every process (every rank) they reach;
- each DataLoader's passes are timed from `iter(loader)` to their last batch (loader_clock.py),
  and the cell's main process writes steps, steps/s, first_batch_s and memory peaks into
  CRASHMATRIX_REPORT when it exits; each rank of a distributed cell writes its own (rank_report.py).

Everything else the program does stays its own (DESIGN.md, "Under inject the program behaves as it does
alone"): the timing only observes, so no warning, exception or output of the program is caught, issued
again or moved, and the frames its warnings and tracebacks name are the ones they name without us.

torch is never imported here: the DataLoader is patched when the program imports it.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from _thread import _local

from . import importhook, knobs, memory_trace, rank_report
from .atomic import write_json_atomic
from .loader_clock import LoaderClock, speed
from .memory_sampler import SAMPLER
from .own_native import NATIVE_OWN, own_native_libraries

PREFIX = "crashmatrix inject:"


def warn(message: str) -> None:
    print(f"{PREFIX} {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- DataLoader knobs


def _loader_value(key: str, value):
    if key in ("pin_memory", "persistent_workers"):
        return knobs.as_bool(value)
    return int(value)


def force_loader_arguments(arguments: dict, forced: dict, start_method: str | None) -> None:
    """Overwrite a DataLoader's bound arguments with the cell's knobs, keeping them consistent.

    With no workers torch refuses persistent_workers, prefetch_factor and a multiprocessing
    context, whoever set them, and a timeout (how long to wait for a worker's batch: torch asserts
    `_SingleProcessDataLoaderIter requires timeout == 0`). With workers, the cell's start_method wins
    over a context the program passes itself: the start method is the knob under test.
    """
    arguments.update(forced)
    if int(arguments.get("num_workers") or 0) == 0:
        if arguments.get("persistent_workers"):
            arguments["persistent_workers"] = False
        for key in ("prefetch_factor", "multiprocessing_context"):
            if arguments.get(key) is not None:
                arguments[key] = None
        if arguments.get("timeout"):
            arguments["timeout"] = 0
    elif start_method and arguments.get("multiprocessing_context") is not None:
        arguments["multiprocessing_context"] = start_method


STATS: list[LoaderClock] = []
_CLOCK = "_crashmatrix_stats"  # where a loader, and an iterator of it, keep their LoaderClock


def patch_dataloader(module, forced: dict, start_method: str | None) -> None:
    """Force the knobs in DataLoader.__init__ (only where the cell sets one); time each pass from
    `iter(loader)` (where torch starts the workers, or resets persistent ones) to its last batch.

    The timing puts no frame of ours between the program and torch: a warning with a stacklevel, or a
    traceback through the loop, reads as it does without crashmatrix, and nothing is caught.
    """
    loader_cls, iter_cls = module.DataLoader, module._BaseDataLoaderIter
    if forced or start_method:
        loader_cls.__init__ = _forcing_init(
            loader_cls.__init__, lambda arguments: force_loader_arguments(arguments, forced, start_method)
        )
    loader_cls.__iter__ = _PassStart(loader_cls.__iter__)
    iter_cls._num_yielded = _BatchCount()
    iter_cls._sampler_iter = _AskFor()


def patch_ddp(module, forced: dict) -> None:
    """Force the DDP knobs (`ddp.<argument>`, without the prefix in `forced`) on every
    DistributedDataParallel: Lightning's strategies and a program's own call alike build it here."""
    ddp_cls = module.DistributedDataParallel
    ddp_cls.__init__ = _forcing_init(ddp_cls.__init__, lambda arguments: arguments.update(forced))


def _forcing_init(original_init, force):
    """original_init with its bound arguments changed by force(arguments) first."""
    import inspect

    signature = inspect.signature(original_init)

    @functools.wraps(original_init)
    def __init__(self, *args, **kwargs):
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError:
            bound = None
        if bound is None:
            # torch says what is wrong with the program's call; outside the except clause, so that its
            # error is not told as raised while handling ours
            return original_init(self, *args, **kwargs)
        force(bound.arguments)
        return original_init(*bound.args, **bound.kwargs)

    return __init__


class _Pending(_local):  # threading's, without importing threading into the program
    """The pass `iter(loader)` is starting in this thread: (clock, start time), until torch's
    iterator is made or reset for it."""

    start: tuple[LoaderClock, float] | None = None


_PENDING = _Pending()


class _PassStart:
    """DataLoader.__iter__ itself, handed out unchanged; looking it up on a loader (which `iter(loader)`
    does right before calling it) notes the time a pass starts.

    A descriptor, not a wrapper: nothing of crashmatrix's is on the stack while torch's __iter__ runs.
    A mere lookup (hasattr) starts no pass: the pass begins when torch makes or resets an iterator.
    """

    def __init__(self, function):
        self.function = function

    def __get__(self, loader, owner=None):
        if loader is None:
            return self.function
        clock = vars(loader).get(_CLOCK)
        if clock is None:
            clock = vars(loader)[_CLOCK] = LoaderClock()  # vars(): DataLoader.__setattr__ is the program's
            STATS.append(clock)
            if not rank_report.known():
                # a main process that a launcher made a rank in-process (Lightning's ddp sets LOCAL_RANK),
                # a rank that torch's spawn started (known only once multiprocessing unpickled it)
                if _MAIN.may_be_rank:
                    rank_report.from_environment(metrics, _at_exit)
                else:
                    rank_report.from_multiprocessing(metrics)
        _PENDING.start = (clock, time.perf_counter())
        return self.function.__get__(loader, owner)


class _BatchCount:
    """torch's own batch counter (`_num_yielded` of a DataLoader iterator), kept where torch keeps it,
    observed as torch sets it: to 0 when it makes or resets an iterator (the pass noted by _PassStart
    starts), up by one after each batch (a tick). torch never sees a frame of ours while it works."""

    def __get__(self, iterator, owner=None):
        if iterator is None:
            return self
        try:
            return vars(iterator)["_num_yielded"]
        except KeyError:
            raise AttributeError(f"{type(iterator).__name__!r} object has no attribute '_num_yielded'") from None

    def __set__(self, iterator, value) -> None:
        vars(iterator)["_num_yielded"] = value
        if value == 0:
            pending, _PENDING.start = _PENDING.start, None
            if pending is not None:
                clock, started = pending
                vars(iterator)[_CLOCK] = clock
                clock.start(at=started)
            return
        clock = vars(iterator).get(_CLOCK)
        if clock is not None:
            clock.tick(iterator)
            SAMPLER.step(iterator)
            if memory_trace.TRACER is not None:  # the instrumented rerun of a growing cell only
                memory_trace.TRACER.step()


class _AskFor:
    """torch's `_sampler_iter` of a DataLoader iterator, kept where torch keeps it; torch reads it first
    thing in `__next__`, so its first read after a batch is when the program asks for the next one (the
    loader clock's ask: how long the loop waits for its batches against how long it works on them)."""

    def __get__(self, iterator, owner=None):
        if iterator is None:
            return self
        state = iterator.__dict__  # the fewest steps: torch reads it two or three times a batch
        clock = state.get(_CLOCK)
        if clock is not None and clock.asked is None:
            clock.asked = time.perf_counter()
        try:
            return state["_sampler_iter"]
        except KeyError:
            raise AttributeError(f"{type(iterator).__name__!r} object has no attribute '_sampler_iter'") from None

    def __set__(self, iterator, value) -> None:
        vars(iterator)["_sampler_iter"] = value


# --------------------------------------------------------------------------- metrics


def _peak_rss_mb() -> float | None:
    # VmHWM, not ru_maxrss: ru_maxrss survives exec and would count the controller's fork.
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    import resource

    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def metrics() -> dict:
    """steps, steps_per_s, first_batch_s, first_batch_total_s (loader_clock.py), peak RSS, peak GPU memory where CUDA ran,
    and how memory grew over the steps (memory_sampler.py)."""
    out = {**speed(STATS), "peak_rss_mb": _peak_rss_mb(), "peak_gpu_mb": None, **SAMPLER.figures()}
    if rank_report.ddp_steps() is not None:
        out[rank_report.DDP_STEPS] = rank_report.ddp_steps()
    torch = sys.modules.get("torch")
    try:
        if torch is not None and torch.cuda.is_initialized():
            out["peak_gpu_mb"] = round(torch.cuda.max_memory_allocated() / 2**20, 1)
    except Exception as e:
        warn(f"peak GPU memory not read: {type(e).__name__}: {e}")
    return out


def write_metrics(path: str) -> None:
    """Merge the metrics into the report; what the program wrote there itself wins, and no status
    is added: the exit status alone decides the outcome. The children a signal killed and nobody reaped
    (rank_report.killed_children) go in too: a DataLoader worker SIGKILLed can leave the main process
    saying only ConnectionResetError."""
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError):
        report = {}
    if not isinstance(report, dict):
        report = {}
    own = report.get("metrics")
    if not isinstance(own, dict):
        own = {}
    report["metrics"] = {**metrics(), **own}
    killed = rank_report.killed_children_at_exit()
    if killed:
        report["killed_children"] = killed
    native = own_native_libraries()  # a death at exit after this names no caller: the program's own native code
    if native:
        report[NATIVE_OWN] = native
    capped = _address_space_cap_mb()
    if capped is not None:
        report[ADDRESS_SPACE_CAP] = capped
    write_json_atomic(path, report, durable=False)  # the cell's own report: no fsync on the way out


# --------------------------------------------------------------------------- wiring


class _Main:
    """Whether this process may be a rank by its environment: not one that multiprocessing started (a
    DataLoader worker inherits its rank's RANK; a spawned rank is known by torch's spawn instead)."""

    may_be_rank = False


_MAIN = _Main()


def _at_exit(function) -> None:
    import atexit

    atexit.register(function)


class _ProcessStarts:
    """The key of our hook in multiprocessing's after-fork registry (a weak dictionary: kept alive here)."""

    def __call__(self, _key) -> None:
        rank_report.from_multiprocessing(metrics)
        if not rank_report.known():  # a rank the program forked itself: its group's rank as it ends
            import multiprocessing.util

            rank_report.note_inherited_group()
            multiprocessing.util.Finalize(None, _group_rank_at_exit, exitpriority=0)


_PROCESS_STARTS = _ProcessStarts()


def _watch_process_starts(util) -> None:
    # multiprocessing runs these hooks in each process it forks, right before the process's target (a
    # spawned one runs none: its rank is learnt at its first DataLoader pass, or at its exit).
    util.register_after_fork(_PROCESS_STARTS, _PROCESS_STARTS)
    # its exit's first finalizers run before it joins the children it started (a rank's DataLoader workers)
    util.Finalize(None, rank_report.note_killed_children, exitpriority=100)


def _spawned_rank_at_exit() -> None:
    if not rank_report.known():
        rank_report.from_multiprocessing(metrics, lambda write: write())
    _group_rank_at_exit()


def _group_rank_at_exit() -> None:
    if not rank_report.known():  # a rank the program started itself, given its rank as an argument
        rank_report.from_group(metrics, lambda write: write())


def install(params: dict, *, in_worker: bool, report_path: str | None) -> None:
    """Force the DataLoader knobs on every DataLoader once the program imports torch's; where report_path
    is given (the cell's main process), write the metrics into it at exit; in every rank of a distributed
    cell, write its own metrics (rank_report.py). The process knobs are knobs.apply's."""
    forced = {k: _loader_value(k, params[k]) for k in knobs.LOADER_KNOBS if knobs.is_set(params, k)}
    start_method = str(params["start_method"]) if not in_worker and knobs.is_set(params, "start_method") else None
    importhook.after_import(
        "torch.utils.data.dataloader", lambda m: patch_dataloader(m, forced, start_method), _say_not_applied
    )
    ddp = {k.removeprefix("ddp."): knobs.ddp_value(k, params[k]) for k in knobs.DDP_KNOBS if knobs.is_set(params, k)}
    if ddp:
        importhook.after_import("torch.nn.parallel.distributed", lambda m: patch_ddp(m, ddp), _say_not_applied)
    importhook.after_import("torch.nn.parallel.distributed", rank_report.count_ddp_steps, _say_not_applied)
    importhook.after_import("multiprocessing.util", _watch_process_starts, _say_not_applied)
    if memory_trace.enabled():  # the instrumented rerun: each loader worker's census, at its items
        importhook.after_import("torch.utils.data._utils.fetch", memory_trace.patch_fetchers, _say_not_applied)
    if not in_worker:
        _MAIN.may_be_rank = True
        rank_report.from_environment(metrics, _at_exit)
        if not report_path:  # a process the program started itself (subprocess): a rank by its own arguments
            _at_exit(_group_rank_at_exit)
    else:
        # a spawned rank that drew no batch: spawn's child ends with sys.exit, so atexit runs
        _at_exit(_spawned_rank_at_exit)
    if report_path:
        SAMPLER.write_to(os.path.join(os.path.dirname(report_path), "memory.json"))
        memory_trace.install(os.environ.get("CRASHMATRIX_CELL_DIR"))
        pid = os.getpid()

        # atexit, not a wrapper around main: Lightning and Hydra end with sys.exit. A forked child
        # inherits the handler, hence the pid.
        def at_exit() -> None:
            if os.getpid() != pid:
                return
            _write_metrics_safely(report_path)
            if not rank_report.known():  # made a rank in-process, and never drew a batch
                rank_report.from_environment(metrics, lambda write: write())
            _group_rank_at_exit()

        _at_exit(at_exit)


def _say_not_applied(module, error: Exception) -> None:
    warn(f"{module.__name__}: knobs not applied: {type(error).__name__}: {error}")


# The report's word for the address-space limit the process ended under, in MiB (its soft RLIMIT_AS), where it had
# one and its limit on processes (RLIMIT_NPROC, which root is exempt from) was not nearly reached by its user's
# threads: Python's `can't start new thread` does not say which limit refused the thread (verdict/classify.py), so
# where both may have, it says neither (a review's program under RLIMIT_NPROC 6 and a 16 GiB address space)
ADDRESS_SPACE_CAP = "address_space_cap_mb"


def _address_space_cap_mb() -> float | None:
    import resource

    try:
        soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
        processes, _ = resource.getrlimit(resource.RLIMIT_NPROC)
    except (OSError, ValueError):
        return None
    if soft == resource.RLIM_INFINITY:
        return None
    if processes != resource.RLIM_INFINITY and os.geteuid() != 0 and _users_threads() + _THREADS_MARGIN >= processes:
        return None
    return round(soft / 2**20, 1)


_THREADS_MARGIN = 64  # threads a pool may have asked for past those still running as the process ends


def _users_threads() -> int:
    """The threads of this process's user now (what RLIMIT_NPROC counts), from /proc; a large number where unread."""
    uid, count = os.geteuid(), 0
    try:
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    if os.stat(f"/proc/{pid}").st_uid == uid:
                        count += len(os.listdir(f"/proc/{pid}/task"))
                except OSError:
                    continue
    except OSError:
        return 1 << 30
    return count


def _write_metrics_safely(path: str) -> None:
    try:
        write_metrics(path)
    except Exception as e:
        warn(f"metrics not written to {path}: {type(e).__name__}: {e}")
