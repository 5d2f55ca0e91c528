"""Workloads that run inside a cell's child process.

A probe is a module of this package with:

    PARAMS: dict[str, object]   # parameter name -> default (documents the probe)
    DESCRIPTION: str            # one line for `crashmatrix probes`
    def main(params: dict) -> dict   # returns metrics (steps, steps_per_s, final_loss, ...)

Probes import torch inside main(), never at module level: `crashmatrix probes`
and the controller read PARAMS without paying for torch.

A probe ends a cell as `skip` by raising Skip(reason) and as `nan` by raising
NonFinite(what); anything else it raises is an ordinary failure; and a crash is
whatever the process really dies of.
"""

from __future__ import annotations

import importlib
import pkgutil

# Module names that are helpers, not probes.
_NOT_PROBES = {"common", "dbnet"}


class Skip(Exception):
    """The cell cannot apply on this machine; the message is the reason."""


class NonFinite(Exception):
    """A loss or a batch held NaN/Inf; the message names the tensor."""


def names() -> list[str]:
    from crashmatrix import probes

    return sorted(
        m.name
        for m in pkgutil.iter_modules(probes.__path__)
        if not m.name.startswith("_") and m.name not in _NOT_PROBES
    )


def load(name: str):
    if name not in names():
        raise KeyError(name)
    return importlib.import_module(f"{__name__}.{name}")
