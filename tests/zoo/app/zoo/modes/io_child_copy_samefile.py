"""An export step run in a child process (multiprocessing, so a slow copy never stalls training): it copies
the best checkpoint into the export folder with `shutil.copy`; the export folder is configured as the
checkpoint folder itself, so source and destination are the same file. The main waits and reports the
child's exit code."""

import multiprocessing as mp
import os
import shutil
import sys
import tempfile

import torch


def export(best: str, export_dir: str) -> None:
    dst = shutil.copy(best, export_dir)
    print(f"exported to {dst}", flush=True)


def main() -> None:
    ckpt_dir = tempfile.mkdtemp(prefix="io-ckpt-")
    export_dir = ckpt_dir  # the config's `export_dir: ${ckpt_dir}`
    best = os.path.join(ckpt_dir, "best.pt")
    torch.save(torch.nn.Linear(8, 2).state_dict(), best)
    print(f"saved {best}", flush=True)
    child = mp.get_context("fork").Process(target=export, args=(best, export_dir), name="exporter")
    child.start()
    child.join()
    if child.exitcode != 0:
        sys.exit(f"export failed: the exporter exited with {child.exitcode}")
