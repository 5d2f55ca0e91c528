"""Process-level knobs, applied inside a cell's child (never in the controller).

torch is imported inside the functions: the controller imports this module's
names only to validate axis names, and must stay torch-free.

Workers started by spawn or forkserver inherit none of these settings, so
`worker_init_fn(params)` gives DataLoader a picklable function that applies
them again inside each worker.
"""

from __future__ import annotations

import functools
import os
import resource

# The knobs this module applies to a process; the controller's list of every knob is knob_names.
PROCESS_KNOBS = (
    "start_method",
    "sharing_strategy",
    "num_threads",
    "cudnn.benchmark",
    "cudnn.deterministic",
    "cudnn.enabled",
    "rlimit.nofile",
    "rlimit.as_mb",
    "shm_mb",
)

# Forced on every torch.utils.data.DataLoader a program builds under `inject: true` (injection.py).
LOADER_KNOBS = ("num_workers", "pin_memory", "persistent_workers", "prefetch_factor")


class Unavailable(Exception):
    """A knob cannot be applied on this machine (the cell is a skip); the message is the reason."""


def as_bool(value) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return bool(value)
    text = str(value).strip().lower()
    if text in ("true", "1", "yes", "on"):
        return True
    if text in ("false", "0", "no", "off", "", "none", "null"):
        return False
    raise ValueError(f"not a boolean: {value!r}")


def set_rlimits(params: dict) -> None:
    if params.get("rlimit.nofile") not in (None, ""):
        n = int(params["rlimit.nofile"])
        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        hard = n if hard == resource.RLIM_INFINITY else min(n, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(n, hard), hard))
    if params.get("rlimit.as_mb") not in (None, ""):
        n = int(params["rlimit.as_mb"]) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (n, n))


def _set(params: dict, key: str) -> bool:
    return params.get(key) not in (None, "")


def apply_torch_knobs(params: dict, *, in_worker: bool = False) -> None:
    """Start method, sharing strategy, threads, cuDNN flags; torch is imported only if one of them is set."""
    if not in_worker and _set(params, "start_method"):
        import multiprocessing

        # torch.multiprocessing's default context is this one. force=True: a
        # probe's imports may already have fixed a default.
        multiprocessing.set_start_method(str(params["start_method"]), force=True)
    torch_keys = ("sharing_strategy", "num_threads", "cudnn.benchmark", "cudnn.deterministic", "cudnn.enabled")
    if not any(_set(params, k) for k in torch_keys):
        return
    import torch
    import torch.multiprocessing as mp

    if _set(params, "sharing_strategy"):
        mp.set_sharing_strategy(str(params["sharing_strategy"]))
    if _set(params, "num_threads"):
        torch.set_num_threads(int(params["num_threads"]))
    for flag in ("benchmark", "deterministic", "enabled"):
        if _set(params, f"cudnn.{flag}"):
            setattr(torch.backends.cudnn, flag, as_bool(params[f"cudnn.{flag}"]))


def private_shm(size_mb: int) -> None:
    """Give this process (and its children) a private /dev/shm of size_mb.

    A mount namespace of our own, then a small tmpfs over /dev/shm: the real
    failure of DataLoader workers on a box with little shared memory (Docker's
    64 MB default, WSL2). Needs root (or CAP_SYS_ADMIN); raises Unavailable otherwise.
    """
    import ctypes
    import ctypes.util

    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    CLONE_NEWNS, MS_REC, MS_PRIVATE = 0x00020000, 0x4000, 0x40000
    if libc.unshare(CLONE_NEWNS) != 0:
        err = ctypes.get_errno()
        raise Unavailable(
            f"shm_mb={size_mb}: cannot make a private mount namespace here ({os.strerror(err)}; needs root)"
        )
    if libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        raise Unavailable(f"shm_mb={size_mb}: cannot make / private ({os.strerror(ctypes.get_errno())})")
    opts = f"size={int(size_mb)}m,mode=1777".encode()
    if libc.mount(b"tmpfs", b"/dev/shm", b"tmpfs", 0, opts) != 0:
        raise Unavailable(f"shm_mb={size_mb}: cannot mount a tmpfs on /dev/shm ({os.strerror(ctypes.get_errno())})")


def apply(params: dict) -> None:
    """Everything, in the cell's main process, before the probe's main()."""
    if params.get("shm_mb") not in (None, "", 0, "0"):
        private_shm(int(params["shm_mb"]))
    set_rlimits(params)
    apply_torch_knobs(params)


def _worker_init(params: dict, worker_id: int) -> None:
    set_rlimits(params)
    # DataLoader gives each worker one intra-op thread; num_threads is the main process's setting.
    apply_torch_knobs({k: v for k, v in params.items() if k != "num_threads"}, in_worker=True)


def worker_init_fn(params: dict):
    """A picklable DataLoader worker_init_fn that re-applies the knobs in each worker."""
    knob_params = {k: params[k] for k in PROCESS_KNOBS if k in params}
    return functools.partial(_worker_init, knob_params)


def resolve_device(params: dict) -> str:
    """`auto` means cuda when present, else cpu."""
    device = str(params.get("device", "auto") or "auto")
    if device == "auto":
        import torch

        return "cuda" if torch.cuda.is_available() else "cpu"
    return device
