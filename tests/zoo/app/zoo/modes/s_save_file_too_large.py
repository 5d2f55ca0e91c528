"""The job caps the size of any file it writes at 1 MiB (as `ulimit -f 1024` in a batch script does); the
checkpoint of a 4 MiB model cannot be written. Python ignores SIGXFSZ, so the write fails with EFBIG instead."""

import os
import resource
import tempfile

import torch


def save_checkpoint(model: torch.nn.Module, folder: str) -> str:
    path = os.path.join(folder, "last.pt")
    torch.save({"model": model.state_dict(), "step": 100}, path)
    return path


def main() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, resource.RLIM_INFINITY))
    model = torch.nn.Linear(1024, 1024)  # 4 MiB of float32 weights
    with tempfile.TemporaryDirectory() as folder:
        print("saved", save_checkpoint(model, folder))
