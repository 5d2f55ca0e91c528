"""How many GPUs a cell started here would see, learnt without importing torch.

`init` needs it before any cell runs: an app whose config asks for `accelerator: gpu` fails in every
cell of a machine without one. The answer comes from, in this order: torch's own view kept from an
earlier run of this interpreter (facts_cache: it knows a CPU-only torch on a GPU machine), the NVIDIA
driver's list of GPUs (/proc/driver/nvidia/gpus), its device nodes (/dev/nvidia0, ...), and
`nvidia-smi -L` where neither exists (WSL2, some containers). CUDA_VISIBLE_DEVICES then narrows what
the driver shows, as it narrows what torch sees. Only NVIDIA's CUDA GPUs are counted.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass

from crashmatrix.machine import pyfacts

_DEVICE_NODE = re.compile(r"nvidia\d+$")


@dataclass(frozen=True)
class GpusHere:
    count: int
    how: str  # how it was learnt, for a person: "no NVIDIA driver, no nvidia-smi"

    def said(self) -> str:
        """'this machine has no GPU (no NVIDIA driver, no nvidia-smi)', '... 1 GPU (...)'."""
        what = "no GPU" if self.count == 0 else f"{self.count} GPU{'s' if self.count != 1 else ''}"
        return f"this machine has {what} ({self.how})"


def _listdir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


def _from_smi() -> int | None:
    """GPUs nvidia-smi lists; None where it is not installed or does not answer."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    try:
        done = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return sum(1 for line in done.stdout.splitlines() if line.startswith("GPU ")) if done.returncode == 0 else 0


def _from_driver() -> GpusHere:
    """What the NVIDIA driver shows this machine, before CUDA_VISIBLE_DEVICES."""
    listed = _listdir("/proc/driver/nvidia/gpus")
    if listed:
        return GpusHere(len(listed), f"{len(listed)} in /proc/driver/nvidia/gpus")
    nodes = [n for n in _listdir("/dev") if _DEVICE_NODE.match(n)]
    if nodes:
        return GpusHere(len(nodes), f"/dev/{', /dev/'.join(sorted(nodes))}")
    smi = _from_smi()
    if smi is None:
        return GpusHere(0, "no NVIDIA driver, no nvidia-smi")
    return GpusHere(smi, f"nvidia-smi -L lists {smi}")


def _visible(found: GpusHere) -> GpusHere:
    """found, narrowed by CUDA_VISIBLE_DEVICES where it is set."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is None or found.count == 0:
        return found
    ids = [i.strip() for i in visible.split(",") if i.strip()]
    if "-1" in ids:  # CUDA stops at the first invalid id
        ids = ids[: ids.index("-1")]
    count = min(found.count, len(ids))
    return GpusHere(count, f"{found.how}; CUDA_VISIBLE_DEVICES={visible!r}")


def gpus_here(python: str) -> GpusHere:
    """The GPUs a cell run by python here would see."""
    kept = pyfacts.kept_answer(python)
    if kept is not None and "gpus" in kept:
        count = len(kept["gpus"])
        torch = kept.get("torch", "")
        return GpusHere(count, f"torch {torch}'s own view, kept from an earlier crashmatrix run")
    return _visible(_from_driver())
