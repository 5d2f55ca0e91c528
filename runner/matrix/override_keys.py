"""A command-line override that names a key the matrix does not have (`axes.num_wrokers=[0]`).

Hydra's own answer is `To append to your config use +axes.num_wrokers=[0]`, which turns a typo into a
new axis (under inject, an argument the program gets). This says what the matrix has instead, and
offers the + form only when nothing near the name exists.
"""

from __future__ import annotations

from crashmatrix.errors import BadInput
from crashmatrix.matrix.knob_names import INJECT_KNOBS, near_knob

# The sections whose names are the user's own (an axis, a param); a typo there is worth a guess.
NAMED_SECTIONS = ("axes", "params")


def _flat_names(node: dict, prefix: str = "") -> list[str]:
    """Dotted names of a nested section, a {values, keys} axis counted as one name."""
    out = []
    for key, value in node.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and not ("values" in value or "keys" in value):
            out += _flat_names(value, name + ".")
        else:
            out.append(name)
    return out


def _missing_at(data: dict, parts: list[str]) -> int | None:
    """The index of the first part of a dotted key that the (nested) data lacks, or None."""
    node = data
    for i, part in enumerate(parts):
        if not isinstance(node, dict):
            return None  # inside a list or a value: Hydra's own error says it best
        if ".".join(parts[i:]) in node:
            return None  # a key kept whole, inside a group choice (logger.wandb.offline)
        if part not in node:
            return i
        node = node[part]
    return None


def check_override_keys(data: dict, overrides: list[str], path: str, *, knobs: bool, top_keys) -> None:
    """BadInput for a plain key=value override whose key the matrix lacks.

    knobs: the knobs are names here (a probe, or inject); top_keys: the keys a matrix file may have.
    """
    for ov in overrides:
        if ov.startswith(("+", "~")) or "=" not in ov:
            continue
        key, _, value = ov.partition("=")
        parts = key.split(".")
        i = _missing_at(data, parts)
        if i is None:
            continue
        if i == 0:
            raise BadInput(f"{path}: override '{ov}': {_top_advice(parts[0], key, value, list(top_keys))}")
        raise BadInput(f"{path}: override '{ov}': {_advice(data, parts, i, value, knobs=knobs)}")


def _top_advice(top: str, key: str, value: str, top_keys: list[str]) -> str:
    """A key the file does not set at the top: a documented one is added with +, another is a typo."""
    if top in top_keys:
        return f"the matrix does not set {top}; to add it, write +{key}={value}"
    near = near_knob(top, top_keys)
    if near:
        return f"{top}: unknown key; did you mean {near}?"
    return f"{top}: unknown key (expected one of: {', '.join(top_keys)})"


def _advice(data: dict, parts: list[str], i: int, value: str, *, knobs: bool) -> str:
    """What to write instead of a key whose parts[i] is missing."""
    key = ".".join(parts)
    section = parts[0] if i >= 1 else ""
    if section not in NAMED_SECTIONS:
        return f"the matrix has no key {key}; to add it, write +{key}={value}"
    name = ".".join(parts[1:])
    # A key the matrix adds to the app's config (`+trainer.x`) is named without its +, as the app has it
    # and as an override of it is written (whole_keys.added): Hydra's grammar takes no + inside a key.
    have = list(dict.fromkeys(n.lstrip("+") for n in _flat_names(data.get(section) or {})))
    near = near_knob(name, have)
    if near:
        return f"the matrix has no {section}.{name}; did you mean {section}.{near}?"
    if knobs and name in INJECT_KNOBS:
        return f"{name} is a knob but not yet in {section}; to add it, write +{section}.{name}={value}"
    knob = near_knob(name, [k for k in INJECT_KNOBS if k not in have]) if knobs else None
    if knob:
        return f"the matrix has no {section}.{name}; did you mean the knob {knob}? (+{section}.{knob}={value})"
    listed = ", ".join(have) or "none"
    return f"the matrix has no {section}.{name} ({section}: {listed}); to add it, write +{section}.{name}={value}"
