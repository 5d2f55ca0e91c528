"""What `inject: true` adds inside an unmodified program, beyond the process knobs (knobs.apply):

- the DataLoader knobs are forced on every torch.utils.data.DataLoader it builds (subclasses
  and loaders Lightning re-creates go through DataLoader.__init__ too);
- each DataLoader's passes are timed from `iter(loader)` to their last batch (loader_clock.py),
  and the cell's main process writes steps, steps/s, first_batch_s and memory peaks into
  CRASHMATRIX_REPORT when it exits.

torch is never imported here: the DataLoader is patched when the program imports it.
"""

from __future__ import annotations

import functools
import json
import os
import sys

from . import importhook, knobs
from .atomic import write_json_atomic
from .loader_clock import LoaderClock, speed

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
    context, whoever set them. With workers, the cell's start_method wins over a context the
    program passes itself: the start method is the knob under test.
    """
    arguments.update(forced)
    if int(arguments.get("num_workers") or 0) == 0:
        if arguments.get("persistent_workers"):
            arguments["persistent_workers"] = False
        for key in ("prefetch_factor", "multiprocessing_context"):
            if arguments.get(key) is not None:
                arguments[key] = None
    elif start_method and arguments.get("multiprocessing_context") is not None:
        arguments["multiprocessing_context"] = start_method


STATS: list[LoaderClock] = []


def patch_dataloader(module, forced: dict, start_method: str | None) -> None:
    """Force the knobs in DataLoader.__init__; time each pass from `iter(loader)` (where torch starts
    the workers, or resets persistent ones) to the last batch its iterator yields."""
    import inspect

    loader_cls, iter_cls = module.DataLoader, module._BaseDataLoaderIter
    original_init = loader_cls.__init__
    signature = inspect.signature(original_init)

    @functools.wraps(original_init)
    def __init__(self, *args, **kwargs):
        if forced or start_method:
            try:
                bound = signature.bind(self, *args, **kwargs)
            except TypeError:  # let torch say what is wrong with the program's call
                return original_init(self, *args, **kwargs)
            force_loader_arguments(bound.arguments, forced, start_method)
            args, kwargs = bound.args[1:], bound.kwargs
        _blaming_the_caller(original_init, self, *args, **kwargs)
        self._crashmatrix_stats = LoaderClock()
        STATS.append(self._crashmatrix_stats)

    original_iter = loader_cls.__iter__

    @functools.wraps(original_iter)
    def __iter__(self):
        stats = getattr(self, "_crashmatrix_stats", None)
        if stats is not None:
            stats.start()  # before torch starts the workers: their start-up is part of the pass
        iterator = _blaming_the_caller(original_iter, self)
        # Set here, not in the iterator's __init__: a wrapper there would be the frame that torch's
        # warnings (stacklevel=2) name, the pin_memory one among them.
        iterator._crashmatrix_stats = stats
        return iterator

    original_next = iter_cls.__next__

    @functools.wraps(original_next)
    def __next__(self):
        batch = original_next(self)
        stats = getattr(self, "_crashmatrix_stats", None)
        if stats is not None:
            stats.tick()
        return batch

    loader_cls.__init__, loader_cls.__iter__ = __init__, __iter__
    iter_cls.__next__ = __next__


def _blaming_the_caller(function, *args, **kwargs):
    """function(*args, **kwargs), its warnings re-issued; one that names this file (torch's stacklevel
    counts our wrapper as its caller) names the program's frame that called the wrapper instead."""
    import warnings

    caller = sys._getframe(2)
    pending: list = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")  # each one is seen here; the re-issue applies the real filters
            try:
                return function(*args, **kwargs)
            finally:
                pending = list(caught)
    finally:
        for w in pending:
            filename, lineno = w.filename, w.lineno
            if os.path.abspath(filename) == os.path.abspath(__file__):
                filename, lineno = caller.f_code.co_filename, caller.f_lineno
            registry = caller.f_globals.setdefault("__warningregistry__", {})
            warnings.warn_explicit(w.message, w.category, filename, lineno, registry=registry)


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
    """steps, steps_per_s, first_batch_s, first_batch_total_s (loader_clock.py), peak RSS, peak GPU memory where CUDA ran."""
    out = {**speed(STATS), "peak_rss_mb": _peak_rss_mb(), "peak_gpu_mb": None}
    torch = sys.modules.get("torch")
    try:
        if torch is not None and torch.cuda.is_initialized():
            out["peak_gpu_mb"] = round(torch.cuda.max_memory_allocated() / 2**20, 1)
    except Exception as e:
        warn(f"peak GPU memory not read: {type(e).__name__}: {e}")
    return out


def write_metrics(path: str) -> None:
    """Merge the metrics into the report; what the program wrote there itself wins, and no status
    is added: the exit status alone decides the outcome."""
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
    write_json_atomic(path, report, durable=False)  # the cell's own report: no fsync on the way out


# --------------------------------------------------------------------------- wiring


def install(params: dict, *, in_worker: bool, report_path: str | None) -> None:
    """Force the DataLoader knobs on every DataLoader once the program imports torch's; where report_path
    is given (the cell's main process), write the metrics into it at exit. The process knobs are
    knobs.apply's."""
    forced = {k: _loader_value(k, params[k]) for k in knobs.LOADER_KNOBS if knobs.is_set(params, k)}
    start_method = str(params["start_method"]) if not in_worker and knobs.is_set(params, "start_method") else None
    importhook.after_import(
        "torch.utils.data.dataloader", lambda m: patch_dataloader(m, forced, start_method), _say_not_applied
    )
    if report_path:
        import atexit

        pid = os.getpid()

        # atexit, not a wrapper around main: Lightning and Hydra end with sys.exit. A forked child
        # inherits the handler, hence the pid.
        def at_exit() -> None:
            if os.getpid() == pid:
                _write_metrics_safely(report_path)

        atexit.register(at_exit)


def _say_not_applied(module, error: Exception) -> None:
    warn(f"{module.__name__}: knobs not applied: {type(error).__name__}: {error}")


def _write_metrics_safely(path: str) -> None:
    try:
        write_metrics(path)
    except Exception as e:
        warn(f"metrics not written to {path}: {type(e).__name__}: {e}")
