"""After training, the sample grids are exported by a spawned child process (to keep PIL's work off the main);
the exporter names the format after the file extension, "JPG", which PIL does not know as a format name (its
JPEG writer is registered as "JPEG"). The main checks the child's exit code."""

import multiprocessing as mp
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

EXT = "jpg"


def export(grids: list, out_dir: str) -> None:
    for i, grid in enumerate(grids):
        im = Image.fromarray(grid)
        im.save(Path(out_dir) / f"grid{i}.{EXT}", format=EXT.upper(), quality=90)
    print(f"exported {len(grids)} grids", flush=True)


def main() -> None:
    rng = np.random.default_rng(0)
    grids = [rng.integers(0, 255, (64, 256, 3), dtype=np.uint8) for _ in range(3)]
    out_dir = tempfile.mkdtemp(prefix="grids_")
    print("training done; exporting sample grids", flush=True)
    child = mp.get_context("spawn").Process(target=export, args=(grids, out_dir), name="grid-exporter")
    child.start()
    child.join()
    if child.exitcode != 0:
        raise RuntimeError(f"the grid exporter failed (exit code {child.exitcode})")
