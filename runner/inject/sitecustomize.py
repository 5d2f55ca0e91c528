"""Loaded by Python at start-up because crashmatrix put this folder on PYTHONPATH (`inject: true`).

It applies the cell's process-level knobs to an unmodified training script:
faulthandler, rlimits, start method, sharing strategy, threads, cuDNN flags.
DataLoader workers started by spawn or forkserver are new interpreters with
the same environment, so this runs in them too: exactly where those knobs
are otherwise lost.
"""

import os
import sys


def _apply() -> None:
    raw = os.environ.get("CRASHMATRIX_KNOBS")
    if not raw:
        return
    import faulthandler
    import json

    faulthandler.enable(all_threads=True)
    from runner import knobs

    params = json.loads(raw)
    # A spawned or forkserver worker must not pick the start method again.
    in_worker = any("multiprocessing" in a or "spawn_main" in a for a in sys.argv)
    knobs.set_rlimits(params)
    knobs.apply_torch_knobs(params, in_worker=in_worker)


try:
    _apply()
except Exception as e:  # never stop the user's program from starting; say why the knobs are missing
    print(f"crashmatrix inject: knobs not applied: {type(e).__name__}: {e}", file=sys.stderr)
