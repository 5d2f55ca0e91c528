"""Loaded by Python at start-up because crashmatrix put this folder on PYTHONPATH (`inject: true`).

It applies the cell's process-level knobs to an unmodified training script:
faulthandler, rlimits, start method, sharing strategy, threads, cuDNN flags.
DataLoader workers started by spawn or forkserver are new interpreters with
the same environment, so this runs in them too: exactly where those knobs
are otherwise lost. Then it runs the sitecustomize this one hides, if any.
"""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load_knobs():
    # By path, under a private name: the user's own code may have a package called `runner`.
    import importlib.util

    spec = importlib.util.spec_from_file_location("_crashmatrix_knobs", os.path.join(os.path.dirname(_HERE), "knobs.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load_by_path(name, filename):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, os.path.join(os.path.dirname(_HERE), filename))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _apply() -> None:
    raw = os.environ.get("CRASHMATRIX_KNOBS")
    if not raw:
        return
    import faulthandler
    import json

    faulthandler.enable(all_threads=True)
    _load_by_path("_crashmatrix_stackdump", "stackdump.py").install()  # stacks on a timeout; torch's crash backtrace
    knobs = _load_knobs()
    params = json.loads(raw)
    # A spawned or forkserver worker must not pick the start method again.
    in_worker = any("multiprocessing" in a or "spawn_main" in a for a in sys.argv)
    knobs.set_rlimits(params)
    knobs.apply_torch_knobs(params, in_worker=in_worker)


def _chain() -> None:
    """Run the sitecustomize that would have run without us (a distribution's or a venv's)."""
    import importlib.machinery
    import importlib.util

    path = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


try:
    _apply()
except Exception as e:  # never stop the user's program from starting; say why the knobs are missing
    print(f"crashmatrix inject: knobs not applied: {type(e).__name__}: {e}", file=sys.stderr)
_chain()
