"""A job of a Hydra multirun as crashmatrix sees it: its overrides split into crashmatrix's knobs
(`+crashmatrix.<knob>=...`, applied from outside as under inject) and the app's own overrides (all the
app ever sees), and the values of its row in results.csv (one column per override, knobs by name)."""

from __future__ import annotations

from dataclasses import dataclass, field

from hydra.errors import CompactHydraException

from crashmatrix.matrix.knob_names import INJECT_KNOBS, near_knob, value_problem

# `+crashmatrix.pin_memory=true` is a knob: the node never reaches the app's config.
KNOB_NODE = "crashmatrix"


class SweepInputError(CompactHydraException):
    """Bad input to the crashmatrix launcher or sweeper: Hydra prints the one-line message and exits 1."""


@dataclass(frozen=True)
class SweepJob:
    """One job: `num` is Hydra's job number; `overrides` as the sweeper gave them; `app_overrides` without
    the knobs; `knobs` the sweep's fixed knobs with the job's own over them; `values` its row's values;
    `written` each column whose key the override spells otherwise (`+extra`, `~tag`), as it spells it."""

    num: int
    overrides: tuple
    app_overrides: tuple
    knobs: dict
    values: dict
    written: dict = field(default_factory=dict)


def knob_name(key: str, where: str) -> str:
    """The knob a `crashmatrix.<name>` key names; SweepInputError for one crashmatrix does not have."""
    name = key[len(KNOB_NODE) + 1 :]
    if name in INJECT_KNOBS or (name.startswith("env.") and len(name) > 4):
        return name
    near = near_knob(name)
    hint = f"did you mean {near}? " if near else ""
    raise SweepInputError(
        f"crashmatrix: {where}: {hint}{name!r} is not a knob (`crashmatrix knobs` lists them; env.NAME sets a variable)"
    )


def knob_value(name: str, value, where: str):
    """`value`, a value the knob takes; SweepInputError for one it refuses (`ddp.static_graph=maybe`)."""
    problem = value_problem(name, value)
    if problem is not None:
        raise SweepInputError(f"crashmatrix: {where}: {problem}")
    return value


def check_fixed_knobs(knobs: dict) -> dict:
    """hydra.launcher.knobs, checked: {knob: value}, dotted names flattened (`+hydra.launcher.knobs.rlimit.nofile=250`
    nests, as Hydra does)."""
    checked = {}
    for key, value in _flat(knobs or {}).items():
        name = knob_name(f"{KNOB_NODE}.{key}", f"hydra.launcher.knobs.{key}")
        checked[name] = knob_value(name, value, f"hydra.launcher.knobs.{key}")
    return checked


def _flat(nested: dict, prefix: str = "") -> dict:
    out: dict = {}
    for key, value in nested.items():
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def parse_jobs(job_overrides, initial_job_idx: int, fixed_knobs: dict) -> list[SweepJob]:
    """The batch's jobs, numbered from initial_job_idx, their knobs checked."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    parser = OverridesParser.create()
    jobs = []
    for i, overrides in enumerate(job_overrides):
        parsed = parser.parse_overrides(list(overrides))
        own = [o for o in parsed if not is_knob(o.key_or_group)]
        app_columns = {column(o) for o in own}
        knobs, values, written = dict(fixed_knobs), {}, {}
        for o in parsed:
            if is_knob(o.key_or_group):
                where = (o.input_line or o.key_or_group).split("=", 1)[0]
                name = knob_name(o.key_or_group, where)
                knobs[name] = knob_value(name, o.value(), where)
                values[knob_column(name, app_columns)] = o.value()
            else:
                values[column(o)] = o.value()
                key = (o.input_line or "").split("=", 1)[0]
                if key and key != column(o):
                    written[column(o)] = key
        jobs.append(
            SweepJob(
                num=initial_job_idx + i,
                overrides=tuple(overrides),
                app_overrides=tuple(o.input_line for o in own),
                knobs=knobs,
                values=values,
                written=written,
            )
        )
    return jobs


def is_knob(key: str) -> bool:
    return key == KNOB_NODE or key.startswith(KNOB_NODE + ".")


def knob_column(name: str, app_columns) -> str:
    """A knob's column in results.csv: its name, or `crashmatrix.<name>` where the app has a column of that name."""
    return f"{KNOB_NODE}.{name}" if name in app_columns else name


def column(override) -> str:
    """An override's column: its key (a config group's name), `@package` where it names one."""
    return override.key_or_group + (f"@{override.package}" if override.package else "")
