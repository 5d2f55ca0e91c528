"""Matrix files: read, apply Hydra overrides, validate, into a frozen Matrix.

Dotted names (`cudnn.benchmark`, `env.NCCL_DEBUG`) are nested before Hydra
sees the file, so overrides such as `axes.cudnn.benchmark=[true]` and
`+axes.env.NCCL_DEBUG=[INFO]` address them, then flattened back in the file's
order. Every problem is a BadInput naming the file and the key.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import shlex
from dataclasses import dataclass, field, replace
from typing import Any, cast

from crashmatrix.cell import spell
from crashmatrix.errors import BadInput
from crashmatrix.matrix import whole_keys
from crashmatrix.matrix.executor_settings import check_settings
from crashmatrix.matrix.interpreters import PYTHON_AXIS
from crashmatrix.matrix.interpreters import check as check_interpreters
from crashmatrix.matrix.knob_names import app_keys, check_typos, check_values
from crashmatrix.matrix.override_keys import check_override_keys
from crashmatrix.redaction import is_secret

TOP_KEYS = {
    "name": "letters, digits, - and _",
    "description": "free text",
    "probe": "a built-in probe (crashmatrix probes)",
    "command": "a program and its arguments, as a list",
    "pass_params": "overrides | options | none",
    "inject": "true | false",
    "cwd": "the folder a command's cells run in: absolute, or from the matrix file's folder (default: where crashmatrix is started)",
    "app_keys": "a list of the program's own key names that are near a knob's (inject)",
    "params": "a mapping of fixed parameters",
    "axes": "a mapping of axis -> list of values (or {values: [...], keys: [k1, k2]})",
    "exclude": "a list of partial cells",
    "include": "a list of cells",
    "env": "a mapping of environment variables",
    "strategy": "full | pairwise",
    "order": "the t of t-way coverage for pairwise (2, 3, ...)",
    "seed": "an integer (pairwise)",
    "repeats": "runs of each cell (>= 1)",
    "timeout": "seconds per cell run (> 0)",
    "kill_grace": "seconds between SIGTERM and SIGKILL (>= 0)",
    "executor": "a mapping of executor settings (Slurm)",
    "sync_rerun": "true | false: rerun a cuda_error cell with synchronous launches (default true)",
    "preflight": "true | false: compose a Hydra app's config for every cell before the first (default true)",
    "reproduces": "the failure a repro matrix reproduces, {outcome, signal, signature} (resolve writes it)",
}

# How a command gets its parameters: key=value (Hydra's overrides), --key=value (its own option parser's
# options), or not at all.
PASS_STYLES = ("overrides", "options", "none")

# The value of each setting a file leaves out: the Matrix's fields, load_matrix's base for plain
# overrides (`strategy=pairwise` with no strategy: in the file) and validate all read this table.
DEFAULTS: dict[str, Any] = {
    "pass_params": "overrides",
    "inject": False,
    "strategy": "full",
    "order": 2,
    "seed": 0,
    "repeats": 1,
    "timeout": 600,
    "kill_grace": 3,
}
# The sections a file may leave out, as the empty value each stands for.
EMPTY_SECTIONS: dict[str, Any] = {"params": {}, "axes": {}, "env": {}, "exclude": [], "include": [], "executor": {}}

NAME_RE = re.compile(r"^[A-Za-z0-9_-]+$")


@dataclass(frozen=True)
class Matrix:
    """A checked matrix file, overrides applied: what to run (`probe` or `command`), over which axes, how.

    `axes` maps each axis (dotted names flattened, `env.NAME` for a variable) to its values in the
    file's order; `params` are fixed for every cell; `exclude` and `include` are GitHub Actions'
    partial cells. crashmatrix.matrix.expand turns it into cells; `to_yaml_dict` is what the run directory keeps.
    """

    path: str
    name: str
    probe: str | None = None
    command: tuple | None = None
    pass_params: str = DEFAULTS["pass_params"]
    inject: bool = DEFAULTS["inject"]
    # The folder a command's cells run in, absolute; "" for where crashmatrix is started (a probe: its cell's).
    cwd: str = ""
    params: dict = field(default_factory=dict)
    axes: dict = field(default_factory=dict)
    exclude: tuple = ()
    include: tuple = ()
    env: dict = field(default_factory=dict)
    strategy: str = DEFAULTS["strategy"]
    order: int = DEFAULTS["order"]
    seed: int = DEFAULTS["seed"]
    repeats: int = DEFAULTS["repeats"]
    timeout: float = float(DEFAULTS["timeout"])
    kill_grace: float = float(DEFAULTS["kill_grace"])
    executor: dict = field(default_factory=dict)
    description: str = ""
    # key=value arguments follow the file's order: its params section first unless axes come first.
    params_first: bool = True
    # An axis written {values: [...], keys: [k1, k2]} sets each of its keys to the value.
    axis_keys: dict = field(default_factory=dict)
    # Names the user says are the program's own keys, though a letter or two from a knob's (inject).
    app_keys: tuple = ()
    # A cuda_error cell runs once more with CUDA_LAUNCH_BLOCKING=1 (crashmatrix.verdict.sync_rerun); --no-sync-rerun.
    sync_rerun: bool = True
    # A Hydra app's config is composed for every cell's overrides before the first (crashmatrix.app.preflight).
    preflight: bool = True
    # A repro matrix's failure ({outcome, signal, signature}): run then says whether that failure came back.
    reproduces: dict = field(default_factory=dict)

    def to_yaml_dict(self) -> dict:
        """The resolved matrix as it is written to the run directory.

        Secrets are environment variables (names with KEY, TOKEN, SECRET, PASSWORD): their values in
        `env:` are never written. Params are written as they are: a run is reloaded from this file
        (--resume, Slurm jobs), and `max_tokens` is a parameter, not a secret.
        """
        from crashmatrix.redaction import redact_mapping

        out: dict[str, Any] = {"name": self.name}
        if self.description:
            out["description"] = self.description
        if self.probe:
            out["probe"] = self.probe
        else:
            out["command"] = list(self.command or ())
            out["pass_params"] = self.pass_params
            out["inject"] = self.inject
            if self.cwd:
                out["cwd"] = self.cwd
            if self.app_keys:
                out["app_keys"] = list(self.app_keys)
        axes = {
            k: ({"values": list(v), "keys": list(self.axis_keys[k])} if k in self.axis_keys else list(v))
            for k, v in self.axes.items()
        }
        sections = [("params", dict(self.params)), ("axes", axes)]
        for key, value in sections if self.params_first else sections[::-1]:
            out[key] = value
        if self.exclude:
            out["exclude"] = [dict(e) for e in self.exclude]
        if self.include:
            out["include"] = [dict(i) for i in self.include]
        out["env"] = redact_mapping(self.env)
        out["strategy"] = self.strategy
        if self.strategy != "full":
            out["order"] = self.order
            out["seed"] = self.seed
        out["repeats"] = self.repeats
        out["timeout"] = self.timeout
        out["kill_grace"] = self.kill_grace
        if not self.sync_rerun:
            out["sync_rerun"] = False
        if not self.preflight:
            out["preflight"] = False
        if self.executor:
            out["executor"] = dict(self.executor)
        if self.reproduces:
            out["reproduces"] = dict(self.reproduces)
        return out


# --- reading ---------------------------------------------------------------


def _read_yaml(path: str):
    import yaml

    if os.path.isdir(path):
        raise BadInput(_a_directory(path))
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise BadInput(f"{path}: cannot read the matrix file ({e.strerror})") from None
    except UnicodeDecodeError as e:
        raise BadInput(f"{path}: not UTF-8 text (byte {e.object[e.start]:#x} at offset {e.start})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else path
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise BadInput(f"{where}: not valid YAML: {problem}") from None
    if data is None:
        raise BadInput(f"{path}: the matrix file is empty; it needs at least `probe:` or `command:` and `axes:`")
    if not isinstance(data, dict):
        raise BadInput(f"{path}: expected a mapping at the top (name:, probe:, axes:, ...), got {type(data).__name__}")
    return data


def _a_directory(path: str) -> str:
    """What a directory given for a matrix file is, and what reads it: a run directory goes to the verbs
    that take RUN; its matrix.yaml is the matrix file the others take."""
    kept = os.path.join(path, "matrix.yaml")
    if os.path.exists(os.path.join(path, "results.csv")) or os.path.isfile(kept):
        return (
            f"{path}: a run directory, not a matrix file: give its matrix file, {shlex.quote(kept)}, or a verb "
            "that reads a run directory (rerun, report, explain, resolve, compare, bisect RUN, run --resume)"
        )
    return f"{path}: a directory, not a matrix file (a YAML file with probe: or command: and axes:)"


def _group_choices(flat: dict) -> list[str]:
    """Keys holding a value while other keys go inside them: a Hydra group's choice (`logger: wandb`
    beside `logger.wandb.offline: true`), which Hydra's own grammar allows."""
    keys = [str(k) for k in flat]
    return [
        k for k, v in zip(keys, flat.values()) if not isinstance(v, dict) and any(o.startswith(k + ".") for o in keys)
    ]


def _nest(flat: dict, path: str, section: str) -> dict:
    """{'cudnn.benchmark': v} -> {'cudnn': {'benchmark': v}}; remembers nothing (order is kept separately).

    A key inside a group choice stays whole (`logger.wandb.offline`): its parent holds a value.
    """
    out: dict = {}
    choices = _group_choices(flat)
    whole: set[str] = set()
    for key, value in flat.items():
        key = str(key)
        if any(key.startswith(c + ".") for c in choices):
            names = set(_flatten({key: value})) if isinstance(value, dict) else {key}
            if names & whole:
                raise BadInput(f"{path}: {section}.{key}: given twice (dotted and nested)")
            whole |= names
            out[key] = value
            continue
        parts = key.split(".")
        node = out
        for p in parts[:-1]:
            existing = node.setdefault(p, {})
            if not isinstance(existing, dict):
                raise BadInput(f"{path}: {section}.{key}: clashes with {section}.{'.'.join(parts[:-1])}")
            node = existing
        if isinstance(value, dict) and isinstance(node.get(parts[-1]), dict):
            for sub in value:
                if sub in node[parts[-1]]:
                    raise BadInput(f"{path}: {section}.{key}.{sub}: given twice (dotted and nested)")
            node[parts[-1]].update(value)
        elif parts[-1] in node:
            raise BadInput(f"{path}: {section}.{key}: given twice (dotted and nested)")
        else:
            node[parts[-1]] = value
    return out


def _is_keys_axis(value) -> bool:
    """The {values: [...], keys: [...]} form of an axis: a leaf, not a level of dotted names."""
    return isinstance(value, dict) and ("values" in value or "keys" in value)


def _flatten(nested: dict, prefix: str = "", *, axes: bool = False) -> dict:
    out: dict = {}
    for key, value in nested.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and not (axes and _is_keys_axis(value)):
            out.update(_flatten(value, name + ".", axes=axes))
        else:
            out[name] = value
    return out


def _order_like(flat: dict, order: list[str]) -> dict:
    known = [k for k in order if k in flat]
    return {k: flat[k] for k in known + [k for k in flat if k not in order]}


def _compose(data: dict, overrides: list[str], path: str) -> dict:
    from hydra import compose, initialize
    from hydra.core.config_store import ConfigStore
    from hydra.errors import HydraException
    from omegaconf import OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    for ov in overrides:
        if "=" not in ov and not ov.startswith("~"):
            raise BadInput(
                f"{path}: override '{ov}': expected key=value, +key=value or ~key (Hydra's override grammar)"
            )
    _check_keyed_axis_overrides(data, overrides, path)
    check_override_keys(
        whole_keys.named(data),
        overrides,
        path,
        knobs=bool(data.get("inject")) or data.get("probe") is not None,
        top_keys=TOP_KEYS,
    )
    data, hidden = whole_keys.hide(data, whole_keys.added(data, overrides))
    try:
        with _hydra_state_left_as_found():
            ConfigStore.instance().store(name=_MATRIX_NODE, node=data)
            with initialize(version_base=None, config_path=None):
                cfg = compose(config_name=_MATRIX_NODE, overrides=hidden)
        # Verbatim: a `${...}` value is for the user's own Hydra app, not for us to resolve.
        return whole_keys.restore(cast(dict, OmegaConf.to_container(cfg, resolve=False)))  # from a dict node
    except (HydraException, OmegaConfBaseException, ValueError) as e:
        lines = [line.strip() for line in str(e).splitlines() if line.strip()]
        msg = whole_keys.unspelt(" ".join(lines[:2])) or type(e).__name__
        which = f" in {overrides}" if overrides else ""
        raise BadInput(f"{path}: bad override{which}: {msg}") from None


_MATRIX_NODE = "crashmatrix_matrix"


@contextlib.contextmanager
def _hydra_state_left_as_found():
    """Compose the matrix with Hydra's own API, leaving Hydra's process-wide state as it was.

    initialize() sets the global version_base and GlobalHydra, and store() adds to the ConfigStore.
    Inside a Hydra app's own process (hydra/launcher=crashmatrix, or a test of Hydra's suites) those
    belong to the app: version_base decides whether its jobs change directory. Ours get fresh
    instances while we compose; theirs are put back after.
    """
    from hydra.core.config_store import ConfigStore
    from hydra.core.global_hydra import GlobalHydra
    from hydra.core.singleton import Singleton
    from hydra.version import VersionBase

    instances = Singleton._instances  # Hydra's registry of its singletons; get_state() would rediscover plugins
    kept = {kind: instances.pop(kind, None) for kind in (GlobalHydra, VersionBase)}
    try:
        yield
    finally:
        for kind, instance in kept.items():
            if instance is None:
                instances.pop(kind, None)
            else:
                instances[kind] = instance
        ConfigStore.instance().repo.pop(_MATRIX_NODE + ".yaml", None)


def _check_keyed_axis_overrides(data: dict, overrides: list[str], path: str) -> None:
    """An axis written as {values, keys} takes new values through .values; Hydra's own error says only
    that it could not merge."""
    axes = data.get("axes")
    if not isinstance(axes, dict):
        axes = {}
    for ov in overrides:
        key, _, value = ov.lstrip("+").partition("=")
        name = key.removeprefix("axes.")
        if key.startswith("axes.") and _is_keys_axis(axes.get(name)) and value.startswith("["):
            raise BadInput(
                f"{path}: override '{ov}': axis {name} is written as {{values, keys}}; "
                f"set its values with 'axes.{name}.values={value}'"
            )


def load_matrix(path: str, overrides=()) -> Matrix:
    """Read the matrix file at `path`, apply Hydra `overrides` (key=value, +key=value, ~key), check it.

    Every problem is a BadInput (exit status 2) naming the file and the key; nothing is run or written.
    """
    path = os.fspath(path)
    data = _read_yaml(path)
    overrides = list(overrides)
    for key in data:
        if key not in TOP_KEYS:
            raise BadInput(f"{path}: {key}: unknown key (expected one of: {', '.join(TOP_KEYS)})")
    for section in ("axes", "params", "executor"):
        if section in data and data[section] is not None and not isinstance(data[section], dict):
            raise BadInput(f"{path}: {section}: expected {TOP_KEYS[section]}, got {type(data[section]).__name__}")
    keys = list(data)
    params_first = not ("params" in keys and "axes" in keys and keys.index("axes") < keys.index("params"))
    axes_order = [str(k) for k in (data.get("axes") or {})]
    params_order = [str(k) for k in (data.get("params") or {})]
    data = dict(data)
    data["axes"] = _nest(data.get("axes") or {}, path, "axes")
    data["params"] = _nest(data.get("params") or {}, path, "params")
    if overrides:
        # The file's own excludes are checked against the file's own axes (a typo is an error);
        # after overrides narrow an axis, an exclude that can no longer match is simply moot.
        validate({**data, "axes": _flatten(data["axes"], axes=True), "params": _flatten(data["params"])}, path)
        # Every documented key can be overridden plainly (`strategy=pairwise`), set in the file or not.
        # pass_params and inject stay out: they belong to a command, and a probe's file must not gain them.
        plain = {k: v for k, v in DEFAULTS.items() if k not in ("pass_params", "inject")}
        data = _compose({**EMPTY_SECTIONS, **plain, **data}, overrides, path)
    for key in data:
        if key not in TOP_KEYS:
            raise BadInput(f"{path}: {key}: unknown key (expected one of: {', '.join(TOP_KEYS)})")
    data["axes"] = _order_like(_flatten(data.get("axes") or {}, axes=True), axes_order)
    data["params"] = _order_like(_flatten(data.get("params") or {}), params_order)
    return replace(validate(data, path, prune_exclude=bool(overrides)), params_first=params_first)


# --- validation -------------------------------------------------------------


def _int(data, key, path, minimum, default, maximum=10**6):
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise BadInput(f"{path}: {key}: expected an integer from {minimum} to {maximum}, got {value!r}")
    return value


def _number(data, key, path, default, *, positive):
    value = data.get(key, default)
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value < 0
        or (positive and value == 0)
    ):
        want = "a number of seconds > 0" if positive else "a number of seconds >= 0"
        raise BadInput(f"{path}: {key}: expected {want}, got {value!r}")
    return float(value)


def _scalar_ok(v) -> bool:
    if isinstance(v, str):
        return "\0" not in v  # no program can receive a NUL byte in an argument
    if isinstance(v, float):
        return math.isfinite(v)
    return v is None or isinstance(v, (int, bool)) or (isinstance(v, list) and all(_scalar_ok(x) for x in v))


_ENV_NAME = re.compile(r"^[^=\0]+$")


def _strategy(data: dict, path: str) -> str:
    strategy = data.get("strategy", DEFAULTS["strategy"])
    if strategy == "hunt":  # an older hunt sweep's matrix.yaml kept it; hunt is a verb, not an expansion
        raise BadInput(
            f"{path}: strategy: expected full | pairwise, got 'hunt' (a hunt is `crashmatrix hunt MATRIX`; a "
            "hunt sweep's matrix.yaml from before crashmatrix kept full there: write strategy: full)"
        )
    if strategy not in ("full", "pairwise"):
        raise BadInput(f"{path}: strategy: expected full | pairwise, got {strategy!r}")
    return strategy


def _executor(data: dict, path: str) -> dict:
    executor = data.get("executor") or {}
    if not isinstance(executor, dict):
        raise BadInput(
            f"{path}: executor: expected a mapping (partition:, time_min:, ...), got {type(executor).__name__}"
        )
    check_settings(executor, path)
    return executor


def validate(data: dict, path: str, *, prune_exclude: bool = False) -> Matrix:
    """The Matrix of a file's data (dotted names flattened); BadInput naming the file and key of the first problem.

    prune_exclude drops the excludes that no longer match an axis value (after overrides narrowed an axis).
    """
    name = _name(data, path)
    probe, command, probe_keys = _program(data, path)
    pass_params, inject = _passing(data, path)
    params = data.get("params") or {}
    axes, axis_keys = _axes(data.get("axes") or {}, params, path)
    _check_scalars(params, path)
    if probe_keys is not None:
        named = (
            [(f"params.{k}", k) for k in params]
            + [(f"axes.{k}", k) for k in axes if k not in axis_keys]
            + [(f"axes.{axis}.keys", k) for axis, keys in axis_keys.items() for k in keys]
        )
        _check_probe_takes(probe, probe_keys, named, path, list_known=True)
        _check_probe_values(probe, _given_values(params, axes, axis_keys, []), path)
    exclude = _exclude(data.get("exclude"), axes, path, prune=prune_exclude)
    include = _include(data.get("include"), path)
    if probe_keys is not None:
        named = [(f"include[{i}].{key}", key) for i, entry in enumerate(include) for key in entry]
        _check_probe_takes(probe, probe_keys, named, path, list_known=False)
    check_interpreters(axes, include, params, path)
    own_keys = app_keys(data, path)
    if command is not None:
        _check_command_keys(pass_params, inject, (params, axes, axis_keys, include, own_keys), path)
    env = _env(data.get("env") or {}, list(axes) + [k for entry in include for k in entry], path)

    strategy = _strategy(data, path)
    executor = _executor(data, path)
    repeats = _int(data, "repeats", path, 1, DEFAULTS["repeats"], maximum=10000)
    return Matrix(
        path=path,
        name=name,
        probe=probe,
        command=command,
        pass_params=pass_params,
        inject=inject,
        cwd=_cwd(data, path, command),
        params=dict(params),
        axes=axes,
        exclude=tuple(exclude),
        include=tuple(include),
        env=env,
        strategy=strategy,
        order=_int(data, "order", path, 2, DEFAULTS["order"]),
        seed=_int(data, "seed", path, 0, DEFAULTS["seed"]),
        repeats=repeats,
        timeout=_number(data, "timeout", path, DEFAULTS["timeout"], positive=True),
        kill_grace=_number(data, "kill_grace", path, DEFAULTS["kill_grace"], positive=False),
        executor=executor,
        description=str(data.get("description") or ""),
        axis_keys=axis_keys,
        app_keys=own_keys,
        sync_rerun=_flag(data, "sync_rerun", path, True),
        preflight=_flag(data, "preflight", path, True),
        reproduces=_reproduces(data, path),
    )


_KIND_FIELDS = ("outcome", "signal", "signature")


def _cwd(data: dict, path: str, command) -> str:
    """`cwd:` made absolute (a relative one is from the matrix file's folder, so the file runs from anywhere);
    "" where the file has none. A probe runs in its cell's folder: it takes none."""
    value = data.get("cwd")
    if value is None:
        return ""
    if command is None:
        raise BadInput(f"{path}: cwd: only a command's cells run where it says (a probe runs in its cell's folder)")
    if not isinstance(value, str) or not value.strip():
        raise BadInput(f"{path}: cwd: expected a folder, got {value!r}")
    folder = os.path.join(os.path.dirname(os.path.abspath(path)), os.path.expanduser(value))
    if not os.path.isdir(folder):
        raise BadInput(f"{path}: cwd: no such folder: {value}")
    return os.path.normpath(folder)


def _reproduces(data: dict, path: str) -> dict:
    value = data.get("reproduces")
    if value is None:
        return {}
    if not isinstance(value, dict) or set(value) - set(_KIND_FIELDS) or "outcome" not in value:
        raise BadInput(f"{path}: reproduces: expected {TOP_KEYS['reproduces']}, got {value!r}")
    return {k: "" if value.get(k) is None else str(value[k]) for k in _KIND_FIELDS}


def _passed_names(params: dict, axes: dict, axis_keys: dict, include: list) -> list[tuple[str, str]]:
    """(where in the file, key) for every key a command's cell passes: params, axes, keys, include."""
    return (
        [(f"params.{k}", k) for k in params]
        + [(f"axes.{k}", k) for k in axes if k not in axis_keys]
        + [(f"axes.{axis}.keys", k) for axis, keys in axis_keys.items() for k in keys]
        + [(f"include[{i}].{key}", key) for i, entry in enumerate(include) for key in entry]
    )


def _check_knobs(params: dict, axes: dict, axis_keys: dict, include: list, own_keys: tuple, path: str) -> None:
    """Under inject: no key a letter or two from a knob, and no knob value it refuses."""
    check_typos(_passed_names(params, axes, axis_keys, include), own_keys, path)
    check_values(_given_values(params, axes, axis_keys, include), path)


def _given_values(params: dict, axes: dict, axis_keys: dict, include: list) -> list[tuple[str, str, object]]:
    """(where in the file, key, value) for every value a key of params, an axis or include takes."""
    return (
        [
            (f"params.{k}", k, v)
            for k, values in params.items()
            for v in (values if isinstance(values, list) else [values])
        ]
        + [(f"axes.{k}", k, v) for k, values in axes.items() if k not in axis_keys for v in values]
        + [(f"include[{i}].{k}", k, v) for i, entry in enumerate(include) for k, v in entry.items()]
    )


def _name(data: dict, path: str) -> str:
    """The matrix's name, else one made from the file's: it names the run directory."""
    name = data.get("name")
    if name is None:
        name = re.sub(r"[^A-Za-z0-9_-]+", "-", os.path.splitext(os.path.basename(path))[0]).strip("-") or "matrix"
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise BadInput(f"{path}: name: {name!r} must be letters, digits, - and _ only (it names the run directory)")
    return name


def _program(data: dict, path: str) -> tuple:
    """(probe, command, the keys the probe takes): a built-in probe, or an external command (keys None)."""
    probe, command = data.get("probe"), data.get("command")
    if (probe is None) == (command is None):
        raise BadInput(
            f"{path}: probe/command: give exactly one: `probe: <name>` (crashmatrix probes) or `command: [program, args...]`"
        )
    if probe is not None:
        from crashmatrix import probes
        from crashmatrix.matrix.knob_names import COMMON_PARAMS

        if not isinstance(probe, str) or probe not in probes.names():
            raise BadInput(f"{path}: probe: unknown probe {probe!r} (built-in: {', '.join(probes.names())})")
        return probe, None, set(probes.load(probe).PARAMS) | set(COMMON_PARAMS) | {PYTHON_AXIS}
    if isinstance(command, str):
        command = shlex.split(command)
    if not isinstance(command, list) or not command or not all(isinstance(c, (str, int, float)) for c in command):
        raise BadInput(f"{path}: command: expected a program and its arguments as a non-empty list, got {command!r}")
    command = tuple(str(c) for c in command)
    if any("\0" in c for c in command):
        raise BadInput(f"{path}: command: an argument holds a NUL byte")
    return None, command, None


def _check_command_keys(pass_params: str, inject: bool, keys: tuple, path: str) -> None:
    """A command's keys as it takes them: options that an option parser reads; under inject, knobs spelled right."""
    params, axes, axis_keys, include, own_keys = keys
    if pass_params == "options":
        _check_options(params, axes, path)
    if inject:
        _check_knobs(params, axes, axis_keys, include, own_keys, path)


def _check_options(params: dict, axes: dict, path: str) -> None:
    """Under pass_params: options every key is an option (`--key=value`): a Hydra override's `+key` or `~key`, and
    a null, which no option parser reads as none, are bad input."""
    named = [(f"params.{k}", k, [v]) for k, v in params.items()] + [(f"axes.{k}", k, v) for k, v in axes.items()]
    for where, key, values in named:
        if key.startswith(("env.", "python")):
            continue
        if key.startswith(("+", "~")):
            raise BadInput(f"{path}: {where}: a Hydra override's {key[0]}key; pass_params: options passes --key=value")
        if any(v is None for v in values):
            raise BadInput(f"{path}: {where}: null is no option value (pass_params: options passes --key=value)")


def _passing(data: dict, path: str) -> tuple[str, bool]:
    """How a command gets the cell's parameters: (pass_params, inject)."""
    pass_params = data.get("pass_params", DEFAULTS["pass_params"])
    if pass_params not in PASS_STYLES:
        raise BadInput(f"{path}: pass_params: expected {' | '.join(PASS_STYLES)}, got {pass_params!r}")
    inject = data.get("inject", DEFAULTS["inject"])
    if not isinstance(inject, bool):
        raise BadInput(f"{path}: inject: expected true or false, got {inject!r}")
    return pass_params, inject


def _flag(data: dict, key: str, path: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise BadInput(f"{path}: {key}: expected true or false, got {value!r}")
    return value


def _check_probe_takes(probe: str, known: set, named: list, path: str, *, list_known: bool) -> None:
    """Each (where, key) of `named` must be a parameter of the probe, or an env.* variable."""
    for where, key in named:
        if key.startswith("env.") or key in known:
            continue
        takes = f" (it takes: {', '.join(sorted(known))}; env.NAME sets a variable)" if list_known else ""
        raise BadInput(f"{path}: {where}: probe {probe!r} has no parameter {key!r}{takes}")


def _check_scalars(params: dict, path: str) -> None:
    for key, value in params.items():
        if not _scalar_ok(value):
            raise BadInput(f"{path}: params.{key}: expected a scalar or a list of scalars, got {value!r}")


def _check_probe_values(probe: str, given: list[tuple[str, str, object]], path: str) -> None:
    """A value the probe would refuse once its cell runs (probes' optional `refuses(key, value)`) is bad input
    now; given: (where in the file, key, value), as _given_values lists them."""
    from crashmatrix import probes

    refuses = getattr(probes.load(probe), "refuses", None)
    if refuses is None:
        return
    for where, key, value in given:
        reason = refuses(key, value)
        if reason:
            raise BadInput(f"{path}: {where}: {spell(value)}: {reason}")


def _axes(raw: dict, params: dict, path: str) -> tuple[dict, dict]:
    """(axis -> its values, axis -> the keys it sets for an axis written {values:, keys:})."""
    axes: dict = {}
    axis_keys: dict = {}
    for key, values in raw.items():
        if isinstance(values, dict):
            values, axis_keys[key] = _keys_axis(values, key, path, params)
        if isinstance(values, (str, int, float, bool)) or values is None:
            raise BadInput(f"{path}: axes.{key}: expected a list of values, got {values!r} (write [{spell(values)}])")
        if not isinstance(values, list):
            raise BadInput(f"{path}: axes.{key}: expected a list of values, got {type(values).__name__}")
        if not values:
            raise BadInput(f"{path}: axes.{key}: empty axis; an axis needs at least one value")
        for v in values:
            if not _scalar_ok(v):
                raise BadInput(f"{path}: axes.{key}: value {v!r} is not a scalar or a list of scalars")
        spellings = [spell(v) for v in values]
        if len(set(spellings)) != len(spellings):
            raise BadInput(f"{path}: axes.{key}: repeated value in {spellings}")
        if key in params:
            raise BadInput(f"{path}: axes.{key}: also set in params; keep it in one place")
        if key.startswith("env.") and is_secret(key[4:]):
            raise BadInput(
                f"{path}: axes.{key}: a secret cannot be an axis (its values would be written to "
                f"results.csv); set {key[4:]} in the environment, which every cell inherits"
            )
        axes[key] = list(values)
    return axes, axis_keys


def _exclude(raw, axes: dict, path: str, *, prune: bool) -> list[dict]:
    """The exclude entries; each names axes and their values (with prune, those that cannot match are dropped)."""
    exclude = _cells_list(raw, "exclude", path)
    if prune:
        exclude = [
            e for e in exclude if all(k in axes and spell(v) in {spell(x) for x in axes[k]} for k, v in e.items())
        ]
    for i, entry in enumerate(exclude):
        for key, value in entry.items():
            if key not in axes:
                raise BadInput(f"{path}: exclude[{i}].{key}: not an axis (axes: {', '.join(axes) or 'none'})")
            if spell(value) not in {spell(v) for v in axes[key]}:
                raise BadInput(
                    f"{path}: exclude[{i}].{key}: {spell(value)} is not one of the axis's values "
                    f"[{', '.join(spell(v) for v in axes[key])}]"
                )
    return exclude


def _include(raw, path: str) -> list[dict]:
    include = _cells_list(raw, "include", path)
    for i, entry in enumerate(include):
        for key in entry:
            if key.startswith("env.") and is_secret(key[4:]):
                raise BadInput(
                    f"{path}: include[{i}].{key}: a secret cannot be a cell value (it would be written "
                    f"to results.csv); set {key[4:]} in the environment"
                )
    return include


def _env(env, cell_keys: list[str], path: str) -> dict:
    """The `env:` section as strings; every env.* name (section, axes, include) must be usable."""
    if not isinstance(env, dict):
        raise BadInput(f"{path}: env: expected a mapping of NAME: value, got {type(env).__name__}")
    for k, v in env.items():
        if not _ENV_NAME.match(str(k)):
            raise BadInput(f"{path}: env.{k}: not a usable environment variable name (empty, or holds = or NUL)")
        if not _scalar_ok(v) or isinstance(v, list):
            raise BadInput(f"{path}: env.{k}: expected a string, number or boolean without NUL bytes, got {v!r}")
    for key in cell_keys:
        if key.startswith("env.") and not _ENV_NAME.match(key[4:]):
            raise BadInput(f"{path}: {key}: not a usable environment variable name")
    return {str(k): spell(v) for k, v in env.items()}


def _keys_axis(raw: dict, key: str, path: str, params: dict) -> tuple:
    """The {values: [...], keys: [k1, k2]} form: (its values, its keys)."""
    extra = sorted(set(raw) - {"values", "keys"})
    if extra:
        raise BadInput(f"{path}: axes.{key}.{extra[0]}: unknown key (an axis mapping has only values: and keys:)")
    values, keys = raw.get("values"), raw.get("keys")
    if not isinstance(values, list) or not values or not all(_scalar_ok(v) for v in values):
        raise BadInput(f"{path}: axes.{key}.values: expected a non-empty list of scalars, got {values!r}")
    if (
        not isinstance(keys, list)
        or not keys
        or not all(isinstance(k, str) and k for k in keys)
        or len(set(keys)) != len(keys)
    ):
        raise BadInput(
            f"{path}: axes.{key}.keys: expected a non-empty list of distinct key names "
            f"(the program's keys this axis sets), got {keys!r}"
        )
    for k in keys:
        if k in params:
            raise BadInput(f"{path}: axes.{key}.keys: {k} is also set in params; keep it in one place")
        if k.startswith("env."):
            raise BadInput(f"{path}: axes.{key}.keys: {k}: an env.* key cannot be set through keys; use an env.* axis")
    return values, tuple(keys)


def _cells_list(value, key: str, path: str) -> list[dict]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise BadInput(f"{path}: {key}: expected a list of mappings like - {{num_workers: 0, pin_memory: true}}")
    out = []
    for i, entry in enumerate(value):
        if not isinstance(entry, dict) or not entry:
            raise BadInput(f"{path}: {key}[{i}]: expected a non-empty mapping of axis: value, got {entry!r}")
        flat = _flatten(entry)
        for k, v in flat.items():
            if not _scalar_ok(v):
                raise BadInput(f"{path}: {key}[{i}].{k}: expected a scalar, got {v!r}")
        out.append(flat)
    return out
