"""The program's own C++ reduction reports progress to a Python callback from inside at::parallel_for.

Each chunk takes the GIL (pybind11::gil_scoped_acquire) to call back; the calling thread already holds it (a
pybind11 function keeps the GIL unless it releases it) and, having run its own chunk, waits at OpenMP's barrier for
the other threads, which wait for the GIL. The program runs with 4 intra-op threads, as on its training node.
"""

import faulthandler

import torch

from zoo.xt_native import ops


def main() -> None:
    faulthandler.enable()
    torch.set_num_threads(4)
    ext = ops()
    seen = []
    x = torch.arange(16, dtype=torch.float32)
    print("summing 16 values with progress", flush=True)
    total = ext.sum_with_progress(x, seen.append)
    print(f"sum {total} after {len(seen)} callbacks")
