"""Keys inside a group choice, kept whole in the matrix, through command-line overrides of the matrix.

`params: {logger: wandb, logger.wandb.offline: true}` cannot nest (logger holds a value), so the
second key stays whole in its section, and Hydra's override grammar cannot address a key with dots
in it: `params.logger.wandb.offline=false` would descend into the string `wandb`. Before Hydra
applies the command line's overrides to the matrix, each such key (and an override adding a new one
under a choice) is renamed with its dots spelt out; afterwards the names are restored.
"""

from __future__ import annotations

SECTIONS = ("params", "axes")
_DOT = "__dot__"


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


def hide(data: dict, overrides: list[str]) -> tuple[dict, list[str]]:
    """The data and overrides with every whole key's dots spelt out, so Hydra sees one name."""
    data = dict(data)
    for section in SECTIONS:
        if isinstance(data.get(section), dict):
            data[section] = {str(k).replace(".", _DOT): v for k, v in data[section].items()}
    out = []
    for override in overrides:
        prefix, key, rest = _split(override)
        section, _, name = key.partition(".")
        raw = data.get(section)
        if section in SECTIONS and isinstance(raw, dict) and name:
            shown = {k.replace(_DOT, "."): v for k, v in raw.items()}
            whole = name.removesuffix(".values").removesuffix(".keys")
            if _is_inside(whole, shown):
                key = f"{section}.{whole.replace('.', _DOT)}{name[len(whole) :]}"
        out.append(prefix + key + rest)
    return data, out


def restore(data: dict) -> dict:
    """The data with the dots of every hidden key back."""
    data = dict(data)
    for section in SECTIONS:
        if isinstance(data.get(section), dict):
            data[section] = {str(k).replace(_DOT, "."): v for k, v in data[section].items()}
    return data
