"""What an app's config asks of the machine's GPUs, and what it would take to run where there are fewer.

Read by key name, as Lightning and plain apps spell it: `accelerator: gpu` (or `cuda`) with its sibling
`devices: 2`, Lightning 1.x's `gpus: 2`, a plain app's `device: cuda:1`. A config asking for more GPUs
than a machine has fails in every cell there, before its first step; `runs_here` gives the values that
run instead: `accelerator: cpu` and `devices: 1` where there is none, fewer `devices` where there are
fewer. Knowing that takes the machine's count (runner/machine/gpus_here.py), never torch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

GPU_ACCELERATORS = ("gpu", "cuda")
# What a key takes on a machine without a GPU, by its name.
ON_CPU = {"accelerator": "cpu", "devices": 1, "gpus": 0, "device": "cpu"}


@dataclass(frozen=True)
class DeviceAsk:
    key: str  # the app's dotted key: trainer.accelerator
    value: Any  # its value in the app's config: gpu
    gpus: int  # the GPUs the setting needs


def _count(value: Any) -> int | None:
    """GPUs a `devices`/`gpus` value names: 2, [0, 1], "0,1", "2"; -1 and "auto" (every GPU) need one."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return 1 if value == -1 else max(value, 0)
    if isinstance(value, (list, tuple)):
        return len(value)
    text = str(value).strip().strip("[]")
    if text in ("auto", "-1"):
        return 1
    if text.isdigit():
        return int(text)
    ids = [part for part in text.split(",") if part.strip().isdigit()]
    return len(ids) or None


def _sibling(key: str, name: str) -> str:
    prefix = key.rpartition(".")[0]
    return f"{prefix}.{name}" if prefix else name


def asks(flat: dict) -> list[DeviceAsk]:
    """The keys of a flat config (dotted key -> value) that ask for a GPU, with how many."""
    found = []
    for key, value in flat.items():
        leaf = key.rpartition(".")[2]
        if leaf == "accelerator" and str(value).lower() in GPU_ACCELERATORS:
            devices = _sibling(key, "devices")
            needed = max(1, _count(flat.get(devices)) or 1)
            found.append(DeviceAsk(key, value, needed))
            if devices in flat:
                found.append(DeviceAsk(devices, flat[devices], needed))
        elif leaf == "gpus" and (listed := _count(value)):
            found.append(DeviceAsk(key, value, listed))
        elif leaf == "device" and isinstance(value, str) and value.lower().startswith("cuda"):
            index = value.partition(":")[2]
            found.append(DeviceAsk(key, value, int(index) + 1 if index.isdigit() else 1))
    return found


def runs_here(found: list[DeviceAsk], gpus: int) -> dict[str, Any]:
    """{key: value} that runs with `gpus` GPUs, for each ask beyond them (none where all fit)."""
    fixes: dict[str, Any] = {}
    for ask in found:
        if ask.gpus <= gpus:
            continue
        leaf = ask.key.rpartition(".")[2]
        if gpus == 0:
            fixes[ask.key] = ON_CPU[leaf]
        elif leaf in ("devices", "gpus"):
            fixes[ask.key] = gpus
        elif leaf == "device":
            fixes[ask.key] = "cuda"  # cuda:3 where there are fewer: the first one
    return fixes
