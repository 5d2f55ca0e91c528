"""A cell's process knobs, applied in one order (apply) by a probe's child and an injected program alike.

torch is imported only inside functions, and only when a torch knob is set. Workers started by spawn
or forkserver inherit none of these settings: under `inject: true` sitecustomize runs in each of them,
and `worker_init_fn(params)` gives a probe's DataLoader a picklable function that applies them again.
"""

from __future__ import annotations

import functools
import os
import resource
from collections.abc import Callable

from . import importhook

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

# Forced on every torch.nn.parallel.DistributedDataParallel a program builds under `inject: true`, in every
# rank (injection.py): `ddp.<name>` is DDP's own argument <name>.
DDP_KNOBS = (
    "ddp.find_unused_parameters",
    "ddp.static_graph",
    "ddp.gradient_as_bucket_view",
    "ddp.broadcast_buffers",
    "ddp.bucket_cap_mb",
)

# The process knobs that need torch.
TORCH_KNOBS = ("sharing_strategy", "num_threads", "cudnn.benchmark", "cudnn.deterministic", "cudnn.enabled")


class Unavailable(Exception):
    """A knob cannot be applied on this machine (the cell is a skip); the message is the reason."""


def is_set(params: dict, key: str) -> bool:
    """Whether the cell sets `key`: absent, None and "" leave the process as it is."""
    return params.get(key) not in (None, "")


def as_bool(value) -> bool:
    """A knob's boolean as a matrix spells it (true, 1, yes, on; false, 0, no, off, empty); ValueError else."""
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


def ddp_value(key: str, value):
    """A DDP knob's value as DDP takes it (a bool; bucket_cap_mb a positive number of MB); ValueError,
    saying what it takes, for a value DDP would refuse or misread."""
    if key != "ddp.bucket_cap_mb":
        return as_bool(value)
    try:
        if isinstance(value, bool):
            raise ValueError
        number = float(value)
    except (TypeError, ValueError):
        number = float("nan")
    if not 0 < number < float("inf"):
        raise ValueError(f"not a positive number of MB: {value!r}")
    return int(number) if number.is_integer() else number


def set_rlimits(params: dict) -> None:
    """rlimit.nofile (never above the hard limit) and rlimit.as_mb, where set."""
    if is_set(params, "rlimit.nofile"):
        n = int(params["rlimit.nofile"])
        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        hard = n if hard == resource.RLIM_INFINITY else min(n, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(n, hard), hard))
    if is_set(params, "rlimit.as_mb"):
        n = int(params["rlimit.as_mb"]) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (n, n))


def set_start_method(method: str) -> None:
    import multiprocessing

    # torch.multiprocessing's default context is this one. force=True: imports before this (a probe's,
    # another sitecustomize's) may already have fixed a default.
    multiprocessing.set_start_method(method, force=True)


def keep_start_method(method: str, say: Callable[[str], None]) -> None:
    """Make `method` the start method the program gets, and keep it against the program's own choice.

    It becomes multiprocessing's default, left unfixed, so that what the program does with the start
    method goes as it goes alone: `get_start_method(allow_none=True)` is None until something fixes it,
    the program's set_start_method with the knob's value is multiprocessing's own call, and a second one
    without force raises `context has already been set`. Only a different method is changed: to the knob
    (the knob under test), and said.
    """
    import multiprocessing
    import multiprocessing.context

    default = multiprocessing.context._default_context
    default._default_context = multiprocessing.get_context(method)  # type: ignore[attr-defined]
    if default._actual_context is not None:  # type: ignore[attr-defined]
        # fixed already by something before the program (another sitecustomize, a .pth): fix it anew
        set_start_method(method)
    set_start_method_of_multiprocessing = default.set_start_method

    def set_start_method_kept(wanted, force=False):
        if wanted is not None and wanted != method:
            say(f"start_method={method} is the cell's knob; the program's set_start_method({wanted!r}) is ignored")
            wanted = method
        set_start_method_of_multiprocessing(wanted, force=force)

    default.set_start_method = set_start_method_kept  # type: ignore[method-assign]
    multiprocessing.set_start_method = set_start_method_kept


def apply_torch_knobs(params: dict) -> None:
    """The TORCH_KNOBS that `params` sets; torch is imported only if one is."""
    if not any(is_set(params, k) for k in TORCH_KNOBS):
        return
    import torch
    import torch.multiprocessing as mp

    if is_set(params, "sharing_strategy"):
        mp.set_sharing_strategy(str(params["sharing_strategy"]))
    if is_set(params, "num_threads"):
        torch.set_num_threads(int(params["num_threads"]))
    for flag in ("benchmark", "deterministic", "enabled"):
        if is_set(params, f"cudnn.{flag}"):
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


def apply(
    params: dict, *, first: bool = True, in_worker: bool = False, say: Callable[[str], None] | None = None
) -> None:
    """The cell's process knobs in their one order:

    1. shm_mb (unless 0), in the cell's first process only: every process started after it inherits the
       mount namespace. Raises Unavailable where it cannot be had: the cell is a skip.
    2. the rlimits;
    3. start_method, except in a worker (`in_worker`: multiprocessing started it, with its parent's);
    4. torch's knobs (a DataLoader worker leaves num_threads out: see for_worker).

    say=None (a probe): a knob that fails raises, and the cell fails naming it; torch's knobs apply now.
    say=a function (inject, where the user's program must start whatever happens): a knob that fails is
    said and the others still apply; the start method is kept against the program's own
    set_start_method; torch's knobs wait for the program to import torch, each applied on its own.
    """
    if first and is_set(params, "shm_mb") and int(params["shm_mb"]) != 0:
        private_shm(int(params["shm_mb"]))
    _step(say, "rlimit", set_rlimits, params)
    if not in_worker and is_set(params, "start_method"):
        method = str(params["start_method"])
        if say is None:
            set_start_method(method)
        else:
            _step(say, "start_method", keep_start_method, method, say)
    torch_params = {k: params[k] for k in TORCH_KNOBS if is_set(params, k)}
    if say is None:
        apply_torch_knobs(torch_params)
    elif torch_params:
        importhook.after_import(
            "torch",
            lambda _torch: _each_said(torch_params, say),
            lambda torch, e: say(f"{torch.__name__}: knobs not applied: {type(e).__name__}: {e}"),
        )


def _step(say: Callable[[str], None] | None, what: str, function, *args) -> None:
    if say is None:
        function(*args)
        return
    try:
        function(*args)
    except Exception as e:
        say(f"{what} not applied: {type(e).__name__}: {e}")


def _each_said(torch_params: dict, say: Callable[[str], None]) -> None:
    # One at a time: a knob torch refuses must not cost the others.
    for key, value in torch_params.items():
        _step(say, f"{key}={value}", apply_torch_knobs, {key: value})


def for_worker(params: dict) -> dict:
    """A DataLoader worker's knobs: DataLoader gives each worker one intra-op thread, and num_threads is
    the main process's setting."""
    return {k: v for k, v in params.items() if k != "num_threads"}


def _worker_init(params: dict, worker_id: int) -> None:
    apply(for_worker(params), first=False, in_worker=True)


def worker_init_fn(params: dict):
    """A picklable DataLoader worker_init_fn that re-applies the knobs in each worker."""
    knob_params = {k: params[k] for k in PROCESS_KNOBS if k in params}
    return functools.partial(_worker_init, knob_params)
