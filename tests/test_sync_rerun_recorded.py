"""A synchronous rerun's place read from real H200 text (tests/zoo/recorded/heldout14/, the fourteenth held-out
set, HELDOUT14.md): the launch the rerun names is the program's line, whatever a library prints after it and
however a launcher labels a rank's lines. Only the GPU is missing here; the text is the machine's.

- y_cupy_float4_offset: a cupy RawKernel of the program's own reads a float4 at a misaligned address. Under
  CUDA_LAUNCH_BLOCKING=1 the launch raises at zoo/modes/y_cupy_float4_offset.py:29 in scale (cupy's
  RawKernel.__call__), then at exit cupy's Module.__dealloc__ prints two more tracebacks of no frame of the
  program's (Cython reports an ignored exception after its traceback, not before as Python does).
- y_ddp_same_gpu: two torchrun ranks on one GPU; NCCL refuses the duplicate at DistributedDataParallel's
  constructor, zoo/modes/y_ddp_same_gpu.py:20 in run, in rank 0's `[rank0]:`-labelled traceback.
"""

import csv
import os

from conftest import ROOT
from diagnose_agreement import _checkout_paths

from crashmatrix.outcome import Outcome
from crashmatrix.verdict.classify import Verdict
from crashmatrix.verdict.sync_rerun import findings

RECORDED = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout14")


def _sync_dirs(run: str, mode: str, scratch) -> list[str]:
    """The mode's recorded sync/ folders, copied with the recording checkout's paths made this one's: the H200
    ran a copy of the repository whose folder is not here, and a place is named from the app's root marker,
    which is found only where the file is."""
    with open(os.path.join(RECORDED, run, "results.csv"), newline="") as f:
        cells = [r["log_dir"] for r in csv.DictReader(f) if r["mode"] == mode]
    copies = []
    for cell in cells:
        copy = scratch / os.path.basename(cell)
        copy.mkdir()
        sync = os.path.join(RECORDED, run, cell, "sync")
        for name in os.listdir(sync):
            with open(os.path.join(sync, name), encoding="utf-8", errors="replace") as f:
                (copy / name).write_text(_checkout_paths(f.read()), encoding="utf-8")
        copies.append(str(copy))
    return copies


def test_the_launch_is_the_programs_line_not_a_librarys_teardown_after_it(tmp_path):
    verdict = Verdict(Outcome.CUDA_ERROR, "", "misaligned address", "cuda_error")
    for sync in _sync_dirs("single", "y_cupy_float4_offset", tmp_path):
        assert findings(1, sync, verdict) == (
            "cupy/_core/raw.pyx:101 in cupy._core.raw.RawKernel.__call__; "
            "zoo/modes/y_cupy_float4_offset.py:29 in scale, synchronous rerun"
        )


def test_a_ranks_labelled_traceback_gives_the_programs_line(tmp_path):
    verdict = Verdict(Outcome.CUDA_ERROR, "", "Duplicate GPU detected", "nccl_error")
    for sync in _sync_dirs("torchrun", "y_ddp_same_gpu", tmp_path):
        # NCCL's own log (nccl.*, whose WARN line the live row adds after the program's line) was left out of the
        # recording; the rank's traceback is what placed it
        assert findings(1, sync, verdict) == (
            "_verify_params_across_processes; zoo/modes/y_ddp_same_gpu.py:20 in run, synchronous rerun"
        )
