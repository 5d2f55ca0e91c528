"""TorchScript export, in a child process so a crash there leaves the pipeline's process alone."""

import multiprocessing as mp
import os
import tempfile

import torch


def _export_worker(path: str) -> None:
    from qkit.model import Net, SafeHead

    scripted = torch.jit.script(SafeHead(Net().eval()))
    scripted.save(path)


def export_in_child() -> str:
    path = os.path.join(tempfile.mkdtemp(prefix="qkit_"), "model.pt")
    child = mp.get_context("spawn").Process(target=_export_worker, args=(path,), name="export")
    child.start()
    child.join()
    if child.exitcode != 0:
        raise RuntimeError(f"export child failed with exit code {child.exitcode}")
    return path
