"""Keys inside a group choice, kept whole in the matrix, through command-line overrides of the matrix.

`params: {logger: wandb, logger.wandb.offline: true}` cannot nest (logger holds a value), so the
second key stays whole in its section, and Hydra's override grammar cannot address a key with dots
in it: `params.logger.wandb.offline=false` would descend into the string `wandb`. Before Hydra
applies the command line's overrides to the matrix, each such key (and an override adding a new one
under a choice) is renamed with its dots spelt out; afterwards the names are restored.

A key written with Hydra's `+` (`params: {+trainer.limit_train_batches: 2}`, a key the app's config
lacks) is the other key the grammar cannot address: `+` may not start a name inside a key. The command
line names it as the app does, without the `+` (`params.trainer.limit_train_batches=4`); `+` in the
section's names is spelt out the same way while Hydra applies the overrides.
"""

from __future__ import annotations

SECTIONS = ("params", "axes")
_DOT = "__dot__"
_PLUS = "__plus__"


def _split(override: str) -> tuple[str, str, str]:
    """(Hydra's +, ++ or ~ prefix, the key, the rest from `=` on)."""
    body = override.lstrip("+~")
    prefix = override[: len(override) - len(body)]
    key, eq, value = body.partition("=")
    return prefix, key, eq + value


def _is_inside(name: str, section: dict) -> bool:
    """A name kept whole, or a new one under a key that holds a value (a choice)."""
    if name in section and "." in name:
        return True
    parts = name.split(".")
    return any(
        not isinstance(section.get(".".join(parts[:n])), dict)
        for n in range(1, len(parts))
        if ".".join(parts[:n]) in section
    )


def _spell_plus(name: str) -> str:
    body = name.lstrip("+")
    return _PLUS * (len(name) - len(body)) + body


def _unspell_plus(name: str) -> str:
    count = 0
    while name.startswith(_PLUS):
        name, count = name[len(_PLUS) :], count + 1
    return "+" * count + name


def named(data: dict) -> dict:
    """The data with each section's `+` keys also under the name the app has (what an override may name):
    `trainer: {devices: 1}` beside `+trainer: {limit_train_batches: 2}` names both under trainer."""
    data = dict(data)
    for section in SECTIONS:
        raw = data.get(section)
        if isinstance(raw, dict):
            merged = dict(raw)
            for k, v in raw.items():
                name = str(k).lstrip("+")
                if name == k:
                    continue
                have = merged.get(name)
                merged[name] = (
                    {**have, **v, **have}
                    if isinstance(v, dict) and isinstance(have, dict)
                    else (v if name not in merged else have)
                )
            data[section] = merged
    return data


def _holds(node, parts: list[str]) -> bool:
    """Whether the nested node has the dotted path (or a key kept whole that starts it)."""
    for i, part in enumerate(parts):
        if not isinstance(node, dict):
            return False
        if ".".join(parts[i:]) in node:
            return True
        if part not in node:
            return False
        node = node[part]
    return True


def added(data: dict, overrides: list[str]) -> list[str]:
    """The overrides, each naming a key the section writes with `+` by that spelling: `params.a.b=1`
    where the section has `+a.b` (or `+a` holding `b`) and no `a.b` of its own (it may have `a.c`)."""
    out = []
    for override in overrides:
        prefix, key, rest = _split(override)
        section, _, name = key.partition(".")
        raw = data.get(section)
        if section in SECTIONS and isinstance(raw, dict) and name and not name.startswith("+"):
            first, *inner = name.split(".")
            plus = next((k for k in ("+" + first, "++" + first) if k in raw and _holds(raw[k], inner)), None)
            if plus is not None and not (first in raw and _holds(raw[first], inner)):
                key = f"{section}.{plus}{name[len(first) :]}"
        out.append(prefix + key + rest)
    return out


def hide(data: dict, overrides: list[str]) -> tuple[dict, list[str]]:
    """The data and overrides with every whole key's dots and every `+` in a section's names spelt out,
    so Hydra sees one name it can address."""
    data = dict(data)
    for section in SECTIONS:
        if isinstance(data.get(section), dict):
            data[section] = {_spell_plus(str(k).replace(".", _DOT)): v for k, v in data[section].items()}
    out = []
    for override in overrides:
        prefix, key, rest = _split(override)
        section, _, name = key.partition(".")
        raw = data.get(section)
        if section in SECTIONS and isinstance(raw, dict) and name.startswith("+"):
            key = f"{section}.{_spell_plus(name)}"
        elif section in SECTIONS and isinstance(raw, dict) and name:
            shown = {k.replace(_DOT, "."): v for k, v in raw.items()}
            whole = name.removesuffix(".values").removesuffix(".keys")
            if _is_inside(whole, shown):
                key = f"{section}.{whole.replace('.', _DOT)}{name[len(whole) :]}"
        out.append(prefix + key + rest)
    return data, out


def unspelt(text: str) -> str:
    """Hydra's message about hidden names, in the names the matrix writes (its hint must name a key the
    user can write, never `__plus__`)."""
    return text.replace(_PLUS, "+").replace(_DOT, ".")


def restore(data: dict) -> dict:
    """The data with the dots of every hidden key back."""
    data = dict(data)
    for section in SECTIONS:
        if isinstance(data.get(section), dict):
            data[section] = {_unspell_plus(str(k)).replace(_DOT, "."): v for k, v in data[section].items()}
    return data
