"""Loaded by Python at start-up because crashmatrix put this folder on PYTHONPATH (`inject: true`).

It applies the cell's knobs to an unmodified training program: the stack dumps (incell/stackdump.py)
first, then the process knobs in the order that probes use too
(incell/knobs.py `apply`: a private /dev/shm, rlimits and the start method now, torch's knobs once
the program imports torch), then the DataLoader knobs and the batch counting (incell/injection.py).
DataLoader workers started by spawn or forkserver are new interpreters with the same environment, so
this runs in them too: exactly where those knobs are otherwise lost. Then it runs the sitecustomize
this one hides, if any, with sys.path as the program has it alone (this folder taken out again).
Faulthandler is the environment's (PYTHONFAULTHANDLER, which every cell gets unless its matrix sets it
empty), as it is for the program alone.

A knob that cannot be applied is said on stderr (`crashmatrix inject: ...`); the program
starts all the same. Only shm_mb ends the cell early, as a skip: without it the cell would
test something else than its name says.
"""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
# Set by the cell's main process: its descendants (workers, re-executed ranks) see it.
_ROOT_VAR = "CRASHMATRIX_INJECT_ROOT"


# The modules of incell/ are imported as this private package: the user's own code may have a package
# called `crashmatrix` (or another copy of ours), and they still find each other (`from . import importhook`).
_PACKAGE = "_crashmatrix"


def _load(name: str):
    import importlib
    import types

    if _PACKAGE not in sys.modules:
        # incell/__init__.py is not run: only the folder is borrowed.
        package = types.ModuleType(_PACKAGE)
        package.__path__ = [os.path.dirname(_HERE)]
        sys.modules[_PACKAGE] = package
    return importlib.import_module(f"{_PACKAGE}.{name}")


def _skip(injection, reason: str) -> None:
    """The cell cannot apply here: say so in the report and end before the program starts."""
    report = os.environ.get("CRASHMATRIX_REPORT")
    if report:
        injection.write_json_atomic(report, {"status": "skip", "reason": reason})
    print(f"crashmatrix: skip: {reason}", file=sys.stderr, flush=True)
    sys.stdout.flush()
    # os._exit: site.py would report a SystemExit raised from sitecustomize as an error.
    os._exit(0)


def _apply() -> None:
    raw = os.environ.get("CRASHMATRIX_KNOBS")
    if not raw:
        return
    import json

    _load("stackdump").install()  # stacks on a timeout; torch's crash backtrace
    _load("thread_altstack").install()  # a thread's own stack overflow told by faulthandler, not silent
    knobs = _load("knobs")
    injection = _load("injection")
    params = json.loads(raw)
    # A spawned or forkserver worker (or the resource tracker) must not pick the start method again.
    in_worker = _started_by_multiprocessing(getattr(sys, "orig_argv", sys.argv))
    is_root = not in_worker and _ROOT_VAR not in os.environ
    if is_root:
        os.environ[_ROOT_VAR] = str(os.getpid())
    # the uncaught exception as Python prints it, whatever the program's own hook prints; in the main process
    # also which hook of the program's LightningModule Lightning refused
    _load("uncaught").install(main=is_root)
    # a forked worker inherits it; a spawned one records its own end too, and so does a rank torchrun or srun
    # started, and any other Python child the program runs (subprocess.run of a preprocessing step): each a new
    # interpreter whose self-sent SIGKILL prints nothing, told only by its parent (CalledProcessError)
    _load("last_exit").install()  # where it ends itself without a word (sys.exit(3), os._exit, SIGKILL)
    if in_worker:
        params = knobs.for_worker(params)
        # a fresh interpreter's imports before its loop: what a spawned DataLoader worker pays each start
        _load("worker_start").install(_load("importhook"))
    try:
        knobs.apply(params, first=is_root, in_worker=in_worker, say=injection.warn)
    except knobs.Unavailable as e:
        _skip(injection, str(e))
    injection.install(
        params, in_worker=in_worker, report_path=os.environ.get("CRASHMATRIX_REPORT") if is_root else None
    )


def _started_by_multiprocessing(argv: list) -> bool:
    """A new interpreter that multiprocessing started (a spawn or forkserver worker, the forkserver, the
    resource tracker): `python [flags] -c 'from multiprocessing.spawn import ...' [--multiprocessing-fork]`.
    A program whose path, arguments or -W filters merely say `multiprocessing` is the program."""
    if "--multiprocessing-fork" in argv:
        return True
    return any(flag == "-c" and code.startswith("from multiprocessing.") for flag, code in zip(argv, argv[1:]))


def _leave_sys_path() -> None:
    """Take this folder out of sys.path: PYTHONPATH put it there only for Python to find this file (the
    variable stays, for the processes the program starts)."""
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]


def _chain() -> None:
    """Run the sitecustomize that would have run without us (a distribution's or a venv's)."""
    import importlib.machinery
    import importlib.util

    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", sys.path)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


try:
    _apply()
except Exception as e:  # never stop the user's program from starting; say why the knobs are missing
    print(f"crashmatrix inject: knobs not applied: {type(e).__name__}: {e}", file=sys.stderr)
_leave_sys_path()
_chain()
