"""The entry point of a cell's child process for built-in probes: `python -m crashmatrix.child SPEC.json`.

Order matters: faulthandler first (so a crash anywhere leaves a Python stack in stderr.log) and the
stack dumps (incell/stackdump.py: stacks on a timeout; torch's fatal-signal handler once torch is
imported), then the process knobs (incell/knobs.py `apply`, the order an injected program gets too),
then the probe. The probe's report (status, metrics, reason) is written whole or not at all.

It lives outside incell/ because it loads the probes, which import numpy and torch.
"""

from __future__ import annotations

import atexit
import faulthandler
import gc
import json
import os
import sys
import traceback

from crashmatrix.incell.atomic import write_json_atomic


def run(spec: dict) -> int:
    from crashmatrix import probes
    from crashmatrix.incell import knobs
    from crashmatrix.incell.memory_sampler import SAMPLER

    params = spec["params"]
    report_path = spec["report"]
    # memory's samples so far, beside the report: a probe that dies still says how its memory grew
    SAMPLER.write_to(os.path.join(os.path.dirname(report_path), "memory.json"))
    try:
        knobs.apply(params)
        metrics = probes.load(spec["probe"]).main(params) or {}
    except (probes.Skip, knobs.Unavailable) as e:
        write_json_atomic(report_path, {"status": "skip", "reason": str(e)})
        print(f"crashmatrix: skip: {e}", file=sys.stderr)
        return 0
    except probes.NonFinite as e:
        write_json_atomic(report_path, {"status": "nan", "reason": str(e)})
        traceback.print_exc()  # where the probe saw it: the row's `where` (verdict/exception_place.py)
        print(f"crashmatrix: non-finite: {e}", file=sys.stderr)
        return 1
    write_json_atomic(report_path, {"status": "ok", "metrics": metrics})
    return 0


def _collect_then_freeze() -> None:
    """The last thing before the interpreter's own teardown (registered first, so it runs after every
    other atexit handler): one collection, whose garbage is finalized as it would be at exit, then the
    survivors frozen. Tearing down, the interpreter otherwise traces torch's whole heap again in each of
    its final collections: 0.2 s of CPU in every probe that imported torch, for objects that die with
    the process."""
    gc.collect()
    gc.freeze()


def main(argv=None) -> int:
    from crashmatrix.incell import last_exit

    atexit.register(_collect_then_freeze)
    faulthandler.enable(all_threads=True)
    last_exit.install()  # a probe that ends itself without a word (os._exit(3), SIGKILL) is placed too
    argv = sys.argv[1:] if argv is None else argv
    with open(argv[0], encoding="utf-8") as f:
        spec = json.load(f)
    return run(spec)


if __name__ in ("__main__", "__mp_main__"):
    # Also as __mp_main__: a spawn or forkserver worker re-imports this module under that name, and
    # must register its own stack dump (the controller imports this module too, and must not).
    from crashmatrix.incell import stackdump

    stackdump.install()

if __name__ == "__main__":
    sys.exit(main())
