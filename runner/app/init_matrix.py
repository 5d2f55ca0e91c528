"""`crashmatrix init APP.py`: a starter matrix from a Hydra app's own config.

The app is read, never imported: `ast` finds its `@hydra.main(config_path=..., config_name=...)`,
and a child process (hydra_compose.py) composes the config with Hydra's compose API. The suspects
are found by key name; knobs that crashmatrix forces from outside under `inject: true` (start
method, DataLoader workers and pinning, wandb's mode) become knob axes, every other suspect is
an axis of the app's own keys, one `keys` axis where several keys share a name.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from crashmatrix.app.config_groups import flatten
from crashmatrix.app.hydra_main import HydraMain, find_hydra_main
from crashmatrix.errors import BadInput
from crashmatrix.incell.knobs import DDP_KNOBS

COMPOSE_CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hydra_compose.py")
PRECISIONS = ["32", "16-mixed", "bf16-mixed"]
START_METHODS = ["fork", "spawn", "forkserver"]
# DataLoader arguments that inject forces on every DataLoader: the app's keys for them are replaced, not axes.
FORCED_LOADER_KEYS = ("num_workers", "pin_memory")
PAIRWISE_ABOVE = 64
NOTES = {
    "the logger's mode": "; WANDB_MODE (the wandb knob) wins where the app reads it"
}  # cells in the full product beyond which the starter matrix is pairwise


@dataclass
class Axis:
    name: str
    values: list
    keys: list = field(default_factory=list)  # the app's keys it sets; empty for a knob or a single key
    why: str = ""
    left_out: dict = field(default_factory=dict)  # a group's options left out -> the GPUs each asks for


@dataclass(frozen=True)
class Written:
    path: str
    axes: int
    cells: int
    full: int  # cells of the full product (more than `cells` when the matrix is pairwise)
    notes: tuple[str, ...] = ()  # what a person must know before running it (a GPU the cells lack)


@dataclass
class Starter:
    """What the matrix holds: knob axes, axes of the app's own keys, config group axes, and the app's
    keys fixed for every cell (params) with the reason they are."""

    knobs: list[Axis]
    own: list[Axis]
    groups: list[Axis]
    params: dict = field(default_factory=dict)
    params_why: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def axes(self) -> list[Axis]:
        return self.knobs + self.own + self.groups


def compose(app: str, main: HydraMain, python: str = sys.executable, timeout: float = 120) -> tuple[dict, dict]:
    """The app's composed config and its config groups' choices, from a child process that imports Hydra only."""
    argv = [python, COMPOSE_CHILD, main.config_dir, main.config_name]
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL, check=False
        )
    except subprocess.TimeoutExpired:
        raise BadInput(f"{app}: composing its config took more than {timeout:.0f} s") from None
    config_file = os.path.join(main.config_dir, main.config_name)
    config_file += "" if config_file.endswith(".yaml") else ".yaml"
    if done.returncode != 0:
        lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
        reason = lines[-1] if lines else f"exit status {done.returncode}"
        raise BadInput(f"{app}: its config {config_file} does not compose: {reason}")
    try:
        data = json.loads(done.stdout)
    except ValueError:
        raise BadInput(
            f"{app}: composing {config_file} printed no config (a program writing to stdout at import?)"
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("config"), dict):
        raise BadInput(f"{app}: its config {config_file} is not a mapping")
    return data["config"], data.get("choices") or {}


def uses_wandb(app: str, flat: dict) -> bool:
    """The app imports wandb or names WandbLogger, or its config mentions wandb."""
    with open(app, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "wandb" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "wandb":
            return True
        if isinstance(node, (ast.Name, ast.Attribute, ast.alias)):
            name = getattr(node, "id", None) or getattr(node, "attr", None) or getattr(node, "name", "")
            if name == "WandbLogger":
                return True
    return any("wandb" in k.lower() or (isinstance(v, str) and "wandb" in v.lower()) for k, v in flat.items())


def _both(value) -> list | None:
    return [value, not value] if isinstance(value, bool) else None


def _precisions(value) -> list | None:
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        return None
    same = {"32": "32", "32-true": "32", "16": "16-mixed", "bf16": "bf16-mixed"}.get(str(value), str(value))
    return [value] + [p for p in PRECISIONS if p != same]


def _prefetch(value) -> list | None:
    if value is None:
        return [None, 4]
    if isinstance(value, int) and not isinstance(value, bool):
        return [value] + [v for v in (2, 4) if v != value][:1]
    return None


def _deterministic(value) -> list | None:
    if isinstance(value, bool):
        return [value, not value]
    return [value, True, False] if value == "warn" else None


def _logger_mode(value) -> list | None:
    if not isinstance(value, str):
        return None
    return [value] + [m for m in ("offline", "disabled") if m != value]


def classify(key: str) -> tuple[str, Callable[[Any], list | None] | None] | None:
    """What kind of suspect a config key is, by its name: (why, alternatives-maker), or None."""
    parts = key.lower().split(".")
    leaf = parts[-1]
    in_logger = any("logger" in p or "wandb" in p for p in parts[:-1])
    if leaf in FORCED_LOADER_KEYS:
        return ("a DataLoader's " + leaf, None)
    if leaf == "persistent_workers":
        return ("a DataLoader's persistent_workers", _both)
    if leaf == "prefetch_factor":
        return ("a DataLoader's prefetch_factor", _prefetch)
    if leaf == "precision":
        return ("mixed precision", _precisions)
    if leaf == "deterministic" or "cudnn" in key.lower() or leaf in ("benchmark", "allow_tf32"):
        return ("a cuDNN flag", _deterministic if leaf == "deterministic" else _both)
    if "image" in leaf:
        return ("an image switch (per-batch image logging is a suspect)", _both)
    if in_logger and leaf == "mode":
        return ("the logger's mode", _logger_mode)
    if (in_logger and leaf in ("enabled", "enable", "use", "active")) or "wandb" in leaf or leaf == "logger":
        return ("a logger switch", _both)
    return None


def app_axes(flat: dict) -> tuple[list[Axis], dict]:
    """Axes of the app's own suspect keys (keys sharing a name move together), and the keys the
    DataLoader knobs replace: {leaf: {key: value}}."""
    groups: dict = {}
    forced: dict = {}
    for key, value in flat.items():
        found = classify(key)
        if found is None:
            continue
        why, alternatives = found
        leaf = key.split(".")[-1]
        if alternatives is None:
            forced.setdefault(leaf, {})[key] = value
            continue
        values = alternatives(value)
        if values is not None:
            groups.setdefault((leaf, why), []).append((key, values))
    from crashmatrix.matrix.knob_names import INJECT_KNOBS

    knobs = set(INJECT_KNOBS)  # an axis by one of these names would be taken as the knob
    axes = []
    for (leaf, why), members in groups.items():
        keys = [k for k, _ in members]
        values = members[0][1]
        if len(keys) == 1 and keys[0] not in knobs:
            axes.append(
                Axis(keys[0], values, why=f"{why}: the app's {keys[0]} (now {_spell(values[0])}){NOTES.get(why, '')}")
            )
        else:
            now = ", ".join(sorted({_spell(v[0]) for _, v in members}))
            name = f"all_{leaf}" if len(keys) > 1 else "app_" + keys[0].replace(".", "_")
            axes.append(
                Axis(
                    name,
                    values,
                    keys=keys,
                    why=f"{why}: {len(keys)} keys of the app, moved together (now {now}){NOTES.get(why, '')}",
                )
            )
    return axes, forced


def knob_axes(
    forced: dict, wandb: bool, code: list | None = None, config_leaves: frozenset = frozenset()
) -> list[Axis]:
    """Knobs crashmatrix forces from outside; values start from the app's own, in its config (forced:
    {leaf: {key: value}}) or written into its DataLoader calls (code: code_knobs.CodeSetting).
    config_leaves: the last parts of the config's keys (`persistent_workers` there is an app axis)."""
    code = code or []
    axes = [Axis("start_method", list(START_METHODS), why="knob: multiprocessing start method (set from outside)")]
    workers = [v for v in forced.get("num_workers", {}).values() if isinstance(v, int) and not isinstance(v, bool)]
    workers += [c.value for c in code if c.knob == "num_workers" and type(c.value) is int]
    most = max(workers, default=0)
    axes.append(
        Axis(
            "num_workers",
            [most, 0] if most > 0 else [0, 2],
            why=_forced_why("num_workers", forced, "forced on every DataLoader", code),
        )
    )
    pins = [v for v in forced.get("pin_memory", {}).values() if isinstance(v, bool)]
    now = any(pins + [c.value is True for c in code if c.knob == "pin_memory"])
    why = _forced_why("pin_memory", forced, "forced on every DataLoader", code)
    axes.append(Axis("pin_memory", [now, not now], why=why))
    axes += _code_only_knobs(config_leaves, code)
    if wandb:
        axes.append(Axis("wandb", ["disabled", "offline"], why="knob: WANDB_MODE (the app uses wandb)"))
    return axes


def _code_only_knobs(config_leaves: frozenset, code: list) -> list[Axis]:
    """persistent_workers and prefetch_factor where only the app's code sets them (its config's keys for
    them are axes of the app's own keys): the app's value first."""
    axes = []
    for knob, kind, others in (("persistent_workers", bool, None), ("prefetch_factor", int, (2, 4))):
        values = [c.value for c in code if c.knob == knob and type(c.value) is kind]
        if not values or knob in config_leaves:
            continue
        first = any(values) if others is None else max(values)
        rest = [not first] if others is None else [v for v in others if v != first][:1]
        axes.append(Axis(knob, [first, *rest], why=_forced_why(knob, {}, "forced on every DataLoader", code)))
    return axes + _ddp_knobs(code)


def _ddp_knobs(code: list) -> list[Axis]:
    """The DDP knobs the app's code sets (DistributedDataParallel's or DDPStrategy's arguments): its value
    first, then the other (bucket_cap_mb: DDP's default, 25)."""
    axes = []
    for knob in DDP_KNOBS:
        values = [c.value for c in code if c.knob == knob and isinstance(c.value, (bool, int, float))]
        if not values:
            continue
        first = values[0]
        other = (not first) if isinstance(first, bool) else 25 if first != 25 else 100
        why = _forced_why(knob, {}, "forced on every DistributedDataParallel, in every rank", code)
        axes.append(Axis(knob, [first, other], why=why))
    return axes


def group_axes(main: HydraMain, choices: dict, gpus: int | None = None, gpus_said: str = "") -> list[Axis]:
    """Config groups with a suspect among their options, as axes named as Hydra names the group
    (`trainer`, `system/device`) picking an option: the app's choice first (where its defaults list
    says null, an option that is no suspect: null is no option), then the suspects. gpus: what a cell
    will have; an option asking for more is left out (every cell of it would fail), named in the comment."""
    from crashmatrix.app.config_groups import suspect_groups

    axes = []
    for found in suspect_groups(main.config_dir, choices):
        group = found.group
        first = [found.current] if found.current else found.others[:1]
        every = first + [o for o in found.suspects if o not in first]
        too_many = [o for o in every[len(first) :] if gpus is not None and found.gpus.get(o, 0) > gpus]
        suspects = ", ".join(f"{o} ({why})" for o, why in found.suspects.items())
        now = found.current or f"none ({group}: null; Hydra's ~{group})"
        why = f"config group {group}: the app's choice {now}; suspect options: {suspects}"
        if too_many:
            asked = ", ".join(f"{o} ({_gpus_text(found.gpus[o])})" for o in too_many)
            why += f". Left out: {asked}; {gpus_said}. Where a cell has them: {_flow(every)}"
        values = [o for o in every if o not in too_many]
        axes.append(Axis(group, values, why=why, left_out={o: found.gpus[o] for o in too_many}))
    return axes


def _gpus_text(n: int) -> str:
    return f"{n} GPU{'s' if n != 1 else ''}"


def missing_axes(flat: dict, main: HydraMain, choices: dict) -> list[Axis]:
    """Suspects the config lacks, offered with `+` (Hydra's add): precision, where the app builds a
    Lightning Trainer from its config and sets no precision (the templates leave it as a comment)."""
    if any(k.split(".")[-1] == "precision" for k in flat):
        return []
    targets = (k for k, v in flat.items() if k.endswith("._target_") and str(v).split(".")[-1] == "Trainer")
    trainer = next((k[: -len("._target_")] for k in targets), None)
    if trainer is None:
        return []
    from crashmatrix.app.config_groups import commented_out

    group = trainer.replace(".", "/")
    where = commented_out(main.config_dir, group, choices.get(group), "precision")
    note = f" (only a comment in {where})" if where else ""
    why = f"mixed precision: the app's Trainer ({trainer}) sets none{note}; + adds the key"
    return [Axis(f"+{trainer}.precision", list(PRECISIONS), why=why)]


def _forced_why(leaf: str, forced: dict, what: str, code: list | None = None) -> str:
    keys = forced.get(leaf, {})
    why = f"knob: {what}"
    if keys:
        now = ", ".join(sorted({_spell(v) for v in keys.values()}))
        why += f", in place of the app's {len(keys)} {leaf} keys (now {now}): {', '.join(keys)}"
    written = [c for c in code or [] if c.knob == leaf]
    if written:
        places = ", ".join(f"{_spell(c.value)} at {c.where}" for c in written)
        why += f"; the app's code sets {leaf}: {places}"
    return why


def _spell(value) -> str:
    from crashmatrix.cell import spell

    return spell(value)


def _flow(values: list) -> str:
    import yaml

    return yaml.safe_dump(values, default_flow_style=True, width=10**6).strip()


def _name_for(app: str) -> str:
    stem = os.path.splitext(os.path.basename(app))[0]
    folder = os.path.basename(os.path.dirname(os.path.abspath(app)))
    return re.sub(r"[^A-Za-z0-9_-]+", "-", f"{folder}-{stem}").strip("-") or "app"


def product(axes: list[Axis]) -> int:
    n = 1
    for a in axes:
        n *= len(a.values)
    return n


def _comment(text: str) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width=110, initial_indent="  # ", subsequent_indent="  #   ", break_on_hyphens=False)


def render(app: str, out: str, main: HydraMain, starter: Starter) -> str:
    """The matrix file, with a comment on every axis saying where it came from."""
    cells = product(starter.axes)
    name = main.config_name if main.config_name.endswith((".yaml", ".yml")) else main.config_name + ".yaml"
    config = os.path.relpath(os.path.join(main.config_dir, name))
    # Relative to the matrix file: crashmatrix finds a script beside its matrix from any directory.
    script = os.path.relpath(os.path.abspath(app), os.path.dirname(os.path.abspath(out)))
    lines = [
        f"# Written by `crashmatrix init {app}` from {config} (composed with Hydra).",
        "# inject: the knob axes are applied from outside (never passed to the app); the app's own keys",
        "# reach it as key=value. First values are the app's own settings; edit freely.",
        f"#   crashmatrix show {out}",
        f"#   crashmatrix run {out} --jobs 2",
        f"name: {_name_for(app)}",
        f"command: [python, {_flow([script])[1:-1]}]",
        "inject: true",
    ]
    if starter.params:
        lines += [line[2:] for line in _comment(starter.params_why)] + ["params:"]
        lines += [f"  {_flow([k])[1:-1]}: {_flow([v])[1:-1]}" for k, v in starter.params.items()]
    lines += ["axes:", "  # knobs"]
    for axis in starter.knobs:
        lines += _comment(axis.why) + [f"  {axis.name}: {_flow(axis.values)}"]
    if starter.own:
        lines.append("  # the app's own keys")
    for axis in starter.own:
        lines += _axis_lines(axis)
    if starter.groups:
        lines.append("  # the app's config groups: each value picks an option file")
    for axis in starter.groups:
        lines += _axis_lines(axis)
    if cells > PAIRWISE_ABOVE:
        lines += [
            f"# {cells} cells in full; pairwise covers every pair of values in far fewer (strategy=full for all)",
            "strategy: pairwise",
        ]
    lines += ["timeout: 600", ""]
    return "\n".join(lines)


def _axis_lines(axis: Axis) -> list[str]:
    lines = _comment(axis.why)
    if axis.keys:
        lines += [f"  {axis.name}:", f"    values: {_flow(axis.values)}", "    keys:"]
        return lines + [f"      - {_flow([k])[1:-1]}" for k in axis.keys]
    return lines + [f"  {_flow([axis.name])[1:-1]}: {_flow(axis.values)}"]


def _cells(text: str, out: str) -> int:
    """The cells of the matrix text, read back as `crashmatrix run` will read it: init never writes
    a file that run would refuse."""
    import tempfile

    from crashmatrix.matrix.expand import expand
    from crashmatrix.matrix.spec import load_matrix

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, os.path.basename(out) or "matrix.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        try:
            return len(expand(load_matrix(path)))
        except BadInput as e:
            raise BadInput(f"init wrote a matrix crashmatrix refuses (a bug; please report it): {e}") from None


def _chosen_in(key: str, choices: dict) -> str:
    """The config group choice a key comes from (`trainer=gpu` for trainer.accelerator), or ""."""
    groups = [g for g in choices if isinstance(choices[g], str) and (key + ".").startswith(g.replace("/", ".") + ".")]
    group = max(groups, key=len, default="")
    return f"{group}={choices[group]}" if group else ""


def runs_here(starter: Starter, app: str, flat: dict, choices: dict, gpus: int, gpus_said: str) -> None:
    """Where the app's config asks for more GPUs than a cell will have: params with the values that
    run (accelerator cpu, fewer devices), the comment saying why, and a note for the person."""
    from crashmatrix.app.device_asks import asks
    from crashmatrix.app.device_asks import runs_here as values_that_run

    found = asks(flat)
    starter.params = values_that_run(found, gpus)
    if not starter.params:
        return
    needed = max(a.gpus for a in found)
    origin = sorted({c for a in found if (c := _chosen_in(a.key, choices))})
    asked = ", ".join(f"{a.key}={_spell(a.value)}" for a in found) + (
        f"; the app's choice {', '.join(origin)}" if origin else ""
    )
    fixed = ", ".join(f"{k}={_spell(v)}" for k, v in starter.params.items())
    starter.params_why = (
        f"The app's config asks for {_gpus_text(needed)} ({asked}), and {gpus_said}: every cell would fail "
        f"before its first step. These params make its cells run; delete them where a cell has "
        f"{_gpus_text(needed)}."
    )
    starter.notes.append(
        f"{app}: its config asks for {_gpus_text(needed)} ({asked}), and {gpus_said}; "
        f"the matrix's params set {fixed} so that its cells run"
    )


def starter_for(app: str, main: HydraMain, flat: dict, choices: dict, gpus: int | None, gpus_said: str) -> Starter:
    """The axes (and params) of the app's starter matrix; gpus: what a cell will have (None: unknown, unchecked)."""
    from crashmatrix.app.code_knobs import loader_settings

    own, forced = app_axes(flat)
    own += missing_axes(flat, main, choices)
    targets = [str(v) for k, v in flat.items() if k.rpartition(".")[2] == "_target_"]
    leaves = frozenset(k.rpartition(".")[2] for k in flat)
    knobs = knob_axes(forced, uses_wandb(app, flat), loader_settings(app, targets), leaves)
    starter = Starter(knobs, own, group_axes(main, choices, gpus, gpus_said))
    if gpus is not None:
        runs_here(starter, app, flat, choices, gpus, gpus_said)
        for axis in starter.groups:
            for option, asked in axis.left_out.items():
                starter.notes.append(
                    f"{app}: {axis.name}={option} asks for {_gpus_text(asked)}: left out of the {axis.name} axis"
                )
    return starter


def init_matrix(app: str, out: str | None = None, *, gpus: Callable[[], tuple[int, str]] | None = None) -> Written:
    """Write the starter matrix for APP. Never overwrites. gpus: asked once the app's config composes, the
    GPUs a cell will have and how that is known, for a person; an app asking for more gets params that
    run with them (None: not checked)."""
    main = find_hydra_main(app)
    out = out or os.path.join(os.path.dirname(app), "crashmatrix.yaml")
    if os.path.lexists(out):
        raise BadInput(f"{out}: already exists; crashmatrix never writes over a file (choose another with --out)")
    config, choices = compose(app, main)
    flat = {k: v for k, v in flatten(config).items() if not k.startswith("hydra.")}
    count, said = gpus() if gpus is not None else (None, "")
    starter = starter_for(app, main, flat, choices, count, said)
    text = render(app, out, main, starter)
    cells = _cells(text, out)
    try:
        with open(out, "x", encoding="utf-8") as f:
            f.write(text)
    except FileExistsError:
        raise BadInput(
            f"{out}: already exists; crashmatrix never writes over a file (choose another with --out)"
        ) from None
    except OSError as e:
        raise BadInput(f"{out}: cannot write it: {e.strerror}") from None
    return Written(out, len(starter.axes), cells, product(starter.axes), tuple(starter.notes))
