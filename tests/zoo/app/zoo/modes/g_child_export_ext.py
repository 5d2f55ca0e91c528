"""At the end of training the sample grids are exported by a separate process (multiprocessing.Process), so
the main can go on; the export format comes from a setting meant for the video export ("webm"), which PIL
does not know as an image extension. The main checks the exporter's exit code."""

import multiprocessing as mp
import os
import tempfile

import numpy as np
from PIL import Image

EXPORT_FORMAT = "webm"


def export(folder: str, n: int, fmt: str) -> None:
    rng = np.random.default_rng(0)
    for i in range(n):
        grid = Image.fromarray((rng.random((64, 64, 3)) * 255).astype(np.uint8))
        grid.save(os.path.join(folder, f"samples_{i:03d}.{fmt}"))
        print(f"exported {i}", flush=True)


def main() -> None:
    folder = tempfile.mkdtemp(prefix="export-")
    print("training done; exporting sample grids", flush=True)
    exporter = mp.Process(target=export, args=(folder, 4, EXPORT_FORMAT), name="grid-exporter")
    exporter.start()
    exporter.join()
    if exporter.exitcode != 0:
        raise RuntimeError(f"grid exporter exited with code {exporter.exitcode}")
