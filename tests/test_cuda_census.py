"""On a GPU, which line allocated the CUDA memory a growing cell keeps (issue 50, item 2), from PyTorch's memory
snapshot taken in the instrumented rerun (runner/incell/memory_trace.py: `_record_memory_history` with each
live block's Python stack, `_snapshot()` at each census).

There is no GPU here, so torch.cuda is MOCKED: a stand-in module whose `_snapshot()` returns blocks in the
format torch documents for it (torch/cuda/memory.py, `_snapshot`'s docstring: segments, each with blocks of
`size`, `requested_size`, `state` and `frames`, innermost first, of `filename`, `line`, `name`). The census
itself, the kept.json it writes and the answer read from it are crashmatrix's real code. The real check is
scripts/gpu_check.sh's growth step, on a lent GPU.
"""

from __future__ import annotations

import json
import sys
import tracemalloc
import types

from conftest import ROOT

from crashmatrix.answers import kept
from crashmatrix.incell import memory_trace

APP = f"{ROOT}/tests/apps/sums_losses.py"  # a real file, for the function at the line (main)
LIB = "/venv/lib/python3.11/site-packages/torch/nn/modules/linear.py"
MB = 2**20


class _Memory:
    """torch.cuda.memory as the census uses it: the recorder's switch, and the allocator's snapshot."""

    def __init__(self):
        self.recording = None
        self.blocks = [self._block(8 * MB, 125)]  # the model's weights, allocated before the loop

    @staticmethod
    def _block(size: int, line: int) -> dict:
        frames = [{"filename": LIB, "line": 125, "name": "forward"}, {"filename": APP, "line": line, "name": "main"}]
        return {"size": size, "requested_size": size, "address": 0, "state": "active_allocated", "frames": frames}

    def _record_memory_history(self, **how):
        self.recording = how

    def _snapshot(self):
        freed = {**self._block(4 * MB, 39), "state": "inactive"}  # cached by the allocator, no tensor's
        return {"segments": [{"blocks": [*self.blocks, freed]}], "device_traces": []}


def test_the_blocks_that_grew_are_named_with_the_programs_line(tmp_path, monkeypatch):
    memory = _Memory()
    cuda = types.SimpleNamespace(is_initialized=lambda: True, memory=memory)
    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(cuda=cuda))
    tracer = memory_trace.Tracer(str(tmp_path))
    try:
        for _step in range(40):  # each step keeps 1 MiB allocated at the program's line 39, under torch's linear
            memory.blocks.append(memory._block(MB, 39))
            tracer.step()
    finally:
        tracemalloc.stop()
    assert memory.recording == {"enabled": "state", "context": "state", "stacks": "python"}
    census = json.loads((tmp_path / memory_trace.FILE_NAME).read_text())
    (grown,) = census["cuda"]  # the weights' block did not grow; the inactive one is no tensor's
    assert (census["first_step"], census["step"]) == (10, 40)
    assert grown["count"] == [10, 40] and grown["mb"] == [10.0, 40.0]
    assert grown["frames"] == [[LIB, 125], [APP, 39]]
    found = kept.from_census(census)
    assert found is not None
    assert found.text() == (
        "30 MB of CUDA memory in 30 more blocks kept, created at tests/apps/sums_losses.py:39 in main "
        "(40 alive at step 40, in an instrumented rerun)"
    )


def test_without_cuda_up_there_is_no_gpu_census(tmp_path, monkeypatch):
    cuda = types.SimpleNamespace(is_initialized=lambda: False, memory=_Memory())
    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(cuda=cuda))
    tracer = memory_trace.Tracer(str(tmp_path))
    try:
        for _step in range(20):
            tracer.step()
    finally:
        tracemalloc.stop()
    assert "cuda" not in json.loads((tmp_path / memory_trace.FILE_NAME).read_text())
