"""The controller's side of the knobs: their names, the split of a cell's parameters into knobs and the
program's own keys, what `crashmatrix knobs` lists, and the typo check that keeps a misspelt knob
(`num_worker`) from reaching the program as an argument of its own under `inject: true`.

The controller reads knobs only through this module; incell/knobs.py applies them inside the cell,
and names there the ones it applies.
"""

from __future__ import annotations

import functools

from crashmatrix.errors import BadInput
from crashmatrix.incell.knobs import DDP_KNOBS, LOADER_KNOBS, PROCESS_KNOBS, ddp_value

# Under `inject: true` these are crashmatrix's, applied from outside and never passed to the
# program as arguments (`wandb` as WANDB_MODE, by the controller); every other key is the program's own.
INJECT_KNOBS = PROCESS_KNOBS + LOADER_KNOBS + DDP_KNOBS + ("wandb",)

# Parameters every probe understands (the contract's list); others are probe-specific.
COMMON_PARAMS = PROCESS_KNOBS + LOADER_KNOBS + ("batch_size", "steps", "device", "precision", "wandb")

# name -> (the values it takes, what it does): exactly the names of INJECT_KNOBS (tests/test_knobs.py).
KNOBS: dict[str, tuple[str, str]] = {
    "start_method": ("fork | spawn | forkserver", "multiprocessing start method of the program and its workers"),
    "sharing_strategy": ("file_descriptor | file_system", "torch.multiprocessing sharing strategy, also in workers"),
    "num_threads": ("an integer", "torch.set_num_threads in the main process"),
    "cudnn.benchmark": ("true | false", "torch.backends.cudnn.benchmark, also in workers"),
    "cudnn.deterministic": ("true | false", "torch.backends.cudnn.deterministic, also in workers"),
    "cudnn.enabled": ("true | false", "torch.backends.cudnn.enabled, also in workers"),
    "rlimit.nofile": ("an integer", "soft limit of open files (RLIMIT_NOFILE), also in workers"),
    "rlimit.as_mb": ("an integer (MB)", "address-space limit (RLIMIT_AS), also in workers"),
    "shm_mb": ("an integer (MB)", "a private /dev/shm of that size (needs root; else the cell is a skip)"),
    "num_workers": ("an integer", "forced on every torch.utils.data.DataLoader the program builds"),
    "pin_memory": ("true | false", "forced on every DataLoader"),
    "persistent_workers": ("true | false", "forced on every DataLoader (with num_workers > 0)"),
    "prefetch_factor": ("an integer", "forced on every DataLoader (with num_workers > 0)"),
    "ddp.find_unused_parameters": ("true | false", "forced on every DistributedDataParallel, in every rank"),
    "ddp.static_graph": ("true | false", "forced on every DistributedDataParallel, in every rank"),
    "ddp.gradient_as_bucket_view": ("true | false", "forced on every DistributedDataParallel, in every rank"),
    "ddp.broadcast_buffers": ("true | false", "forced on every DistributedDataParallel, in every rank"),
    "ddp.bucket_cap_mb": ("a number (MB)", "forced on every DistributedDataParallel, in every rank"),
    "wandb": ("disabled | offline | online", "wandb's mode, set as WANDB_MODE"),
}

# How a program sets each knob itself where crashmatrix applied it from outside (resolve's `how to apply`):
# ("code", the line to write in the program) or ("environment", what to set before it starts). {v}: the
# value as Python spells it (True, None), {s}: as the matrix spells it, {kb}: an MB value in kB. Exactly
# the names of KNOBS (tests/test_knobs.py): a knob resolve cannot say how to apply is one it cannot recommend.
APPLIED_AS: dict[str, tuple[str, str]] = {
    "start_method": ("code", 'torch.multiprocessing.set_start_method("{s}", force=True)'),
    "sharing_strategy": ("code", 'torch.multiprocessing.set_sharing_strategy("{s}")'),
    "num_threads": ("code", "torch.set_num_threads({v})"),
    "cudnn.benchmark": ("code", "torch.backends.cudnn.benchmark = {v}"),
    "cudnn.deterministic": ("code", "torch.backends.cudnn.deterministic = {v}"),
    "cudnn.enabled": ("code", "torch.backends.cudnn.enabled = {v}"),
    "rlimit.nofile": ("environment", "ulimit -n {s}"),
    "rlimit.as_mb": ("environment", "ulimit -v {kb}"),
    "shm_mb": ("environment", "a /dev/shm of {s} MB (docker run --shm-size={s}m)"),
    "num_workers": ("code", "DataLoader(..., num_workers={v})"),
    "pin_memory": ("code", "DataLoader(..., pin_memory={v})"),
    "persistent_workers": ("code", "DataLoader(..., persistent_workers={v})"),
    "prefetch_factor": ("code", "DataLoader(..., prefetch_factor={v})"),
    **{
        knob: ("code", f"DistributedDataParallel(..., {arg}={{v}}) (Lightning: DDPStrategy({arg}={{v}}))")
        for knob, arg in ((k, k.removeprefix("ddp.")) for k in DDP_KNOBS)
    },
    "wandb": ("environment", "WANDB_MODE={s}"),
}

# A knob's value that applies nothing (shm_mb=0: the machine's own /dev/shm), and how resolve says it: no size to
# give a container (a review found `docker run --shm-size=0m` advised for it).
APPLIED_AS_IS: dict[str, tuple[str, tuple[str, str]]] = {
    "shm_mb": ("0", ("environment", "the machine's own /dev/shm, as it is (no --shm-size to give)")),
}

# The knobs whose values are checked before anything runs: what each takes, as the cell will apply it.
_CHECKED = {knob: functools.partial(ddp_value, knob) for knob in DDP_KNOBS}

# Names with a meaning with or without inject; a near miss of these is as likely a typo.
RESERVED = {"python": "the interpreter of each cell (a path; `python` in command means it)"}

# The matrix file's key that says a name near a knob is the program's own key, not a typo.
APP_KEYS = "app_keys"


def value_problem(knob: str, value) -> str | None:
    """Why `value` is not a value of `knob` (`not a boolean: 'maybe'`), or None where it is one (or the
    knob's values are not checked here)."""
    check = _CHECKED.get(knob)
    if check is None or value in (None, ""):
        return None
    try:
        check(value)
    except ValueError as e:
        return f"{e} ({knob} takes {KNOBS[knob][0]})"
    return None


def check_values(given: list[tuple[str, str, object]], path: str) -> None:
    """Each (where, knob, value) a cell would apply, checked: a BadInput for the first value the knob refuses."""
    for where, knob, value in given:
        problem = value_problem(knob, value)
        if problem is not None:
            raise BadInput(f"{path}: {where}: {problem}")


def split_injected(params: dict) -> tuple[dict, dict]:
    """(crashmatrix's knobs, the program's own keys), each in the given order."""
    knobs = {k: v for k, v in params.items() if k in INJECT_KNOBS}
    return knobs, {k: v for k, v in params.items() if k not in INJECT_KNOBS}


def knobs_text() -> str:
    """What `crashmatrix knobs` prints, its last newline included."""
    from tabulate import tabulate

    rows = [[name, values, what] for name, (values, what) in KNOBS.items()]
    lines = [
        "Knobs: with `inject: true` crashmatrix applies these from outside and never passes them to the",
        "program; every other axis or param is the program's own key (key=value). The built-in probes",
        "take them too, but for the ddp.* ones (DDP's own arguments, under inject only).",
        "",
        tabulate(rows, headers=["knob", "values", "what it does"]),
        "",
        "Always, with or without inject:",
        f"  python    {RESERVED['python']}",
        "  env.NAME  an environment variable of the cell",
        "",
        f"Under inject, a name a letter or two from a knob is refused as a likely typo; list it in {APP_KEYS}:",
        f"  [name] when it is the program's own key ({APP_KEYS}: [num_worker]).",
    ]
    return "\n".join(lines) + "\n"


def distance(a: str, b: str) -> int:
    """Edit distance with a swap of neighbours as one edit (num_wrokers is one from num_workers)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


def near_knob(name: str, candidates=None) -> str | None:
    """The knob (or reserved name) `name` is likely a typo of, or None.

    Small means: one edit for a name of five letters or fewer (wandb), two for longer ones; case
    and - for _ are free (NUM_WORKERS, num-workers). An exact knob is not a typo.
    """
    candidates = list(candidates if candidates is not None else [*INJECT_KNOBS, *RESERVED])
    if name in candidates:
        return None
    plain = name.lower().replace("-", "_")
    best = None
    for knob in candidates:
        d = distance(plain, knob)
        if d <= (1 if len(knob) <= 5 else 2) and (best is None or d < best[0]):
            best = (d, knob)
    return best[1] if best else None


def app_keys(data: dict, path: str) -> tuple[str, ...]:
    """The matrix's app_keys: names the user says are the program's own; a knob cannot be one."""
    raw = data.get(APP_KEYS) or []
    if not isinstance(raw, list) or not all(isinstance(k, str) and k for k in raw):
        raise BadInput(f"{path}: {APP_KEYS}: expected a list of the program's own key names, got {raw!r}")
    for key in raw:
        if key in INJECT_KNOBS or key in RESERVED:
            raise BadInput(
                f"{path}: {APP_KEYS}: {key} is a crashmatrix knob, applied from outside under inject "
                "(crashmatrix knobs); it cannot be the program's own key there"
            )
    return tuple(raw)


def check_typos(named: list[tuple[str, str]], own: tuple[str, ...], path: str) -> None:
    """Under inject: each (where, key) that passes to the program and is near a knob is a BadInput."""
    for where, key in named:
        if key in own or key.startswith("env."):
            continue
        knob = near_knob(key)
        if knob is not None:
            raise BadInput(
                f"{path}: {where}: did you mean {knob}? {key} is not a knob, so under inject: true it would "
                f"reach the program as {key}=...; if it is the program's own key, add {APP_KEYS}: [{key}]"
            )
