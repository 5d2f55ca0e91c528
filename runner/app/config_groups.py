"""A Hydra app's config groups, read from its config folder: which options each offers, which are suspects.

A group is a folder of option files (`logger/wandb.yaml`, `trainer/ddp.yaml`); the app picks one
option per group in its defaults list (`logger: null`, `trainer: default`), and a run picks another
with `logger=wandb`. An option is a suspect when its name or its (uncommented) text names a wandb
logger or a GPU / distributed trainer: the settings the crash reports blame.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from crashmatrix.app.device_asks import asks

# Hydra's own groups (hydra/launcher, hydra/job_logging...) configure Hydra, not the app.
_SKIP = ("hydra",)
_SUSPECTS = {
    "a wandb logger": re.compile(r"wandb", re.I),
    "a distributed trainer": re.compile(r"\bddp|\bfsdp|deepspeed", re.I),
    "a GPU trainer": re.compile(r"\bgpus?\b|\bcuda\b", re.I),
}
_YAML = (".yaml", ".yml")


@dataclass(frozen=True)
class GroupSuspect:
    group: str  # as Hydra names it: `logger`, `trainer/accelerator`
    current: str | None  # the app's own choice; None where its defaults list says null
    suspects: dict  # option -> why ("a wandb logger")
    others: list  # the group's options that are no suspect, in name order
    gpus: dict = field(default_factory=dict)  # option -> the GPUs it asks for, where it asks for any


def flatten(data: dict, prefix: str = "") -> dict:
    """Dotted key -> leaf value; a list is a leaf (an app's key takes it whole)."""
    out = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out.update(flatten(value, name + "."))
        else:
            out[name] = value
    return out


def options(config_dir: str) -> dict[str, list[str]]:
    """Group -> its option names, for every folder of option files under config_dir but Hydra's own."""
    found: dict[str, list[str]] = {}
    for folder, dirs, files in os.walk(config_dir):
        group = os.path.relpath(folder, config_dir).replace(os.sep, "/")
        if group.split("/")[0] in _SKIP:
            dirs[:] = []
            continue
        names = sorted(os.path.splitext(f)[0] for f in files if f.endswith(_YAML))
        if group != "." and names:
            found[group] = names
        dirs.sort()
    return found


def _text(config_dir: str, group: str, option: str) -> str:
    """An option file's text ("" where there is none)."""
    for ext in _YAML:
        path = os.path.join(config_dir, *group.split("/"), option + ext)
        if os.path.isfile(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                return f.read()
    return ""


def _why(text: str, option: str) -> str | None:
    """What kind of suspect an option is, by its name first, then by its text without comments."""
    text = option + "\n" + "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    return next((why for why, pattern in _SUSPECTS.items() if pattern.search(text)), None)


def _option_keys(config_dir: str, group: str, option: str, depth: int = 0) -> dict:
    """An option's keys, flat, over those of the options of its group that its defaults list names
    first (`defaults: [default]` in gpu.yaml): what picking it sets, as far as its group says."""
    import yaml

    try:
        data = yaml.safe_load(_text(config_dir, group, option))
    except yaml.YAMLError:
        return {}
    if not isinstance(data, dict):
        return {}
    keys: dict = {}
    defaults = data.pop("defaults", None)
    for entry in defaults if isinstance(defaults, list) and depth < 4 else []:
        if isinstance(entry, str) and entry != "_self_":
            keys.update(_option_keys(config_dir, group, entry, depth + 1))
    keys.update(flatten(data))
    return keys


def _gpus(config_dir: str, group: str, option: str) -> int:
    """The GPUs an option asks for by its keys (`accelerator: gpu`, `devices: 4`); 0 where they do not say."""
    return max((ask.gpus for ask in asks(_option_keys(config_dir, group, option))), default=0)


def suspect_groups(config_dir: str, choices: dict) -> list[GroupSuspect]:
    """The groups with a suspect among their options, current choice as the app's defaults list has it."""
    out = []
    for group, names in options(config_dir).items():
        texts = {name: _text(config_dir, group, name) for name in names}
        whys = {name: _why(texts[name], name) for name in names}
        suspects = {name: why for name, why in whys.items() if why}
        if not suspects:
            continue
        current = choices.get(group)
        others = [name for name in names if not whys[name]]
        gpus = {name: n for name in names if (n := _gpus(config_dir, group, name))}
        out.append(GroupSuspect(group, current if isinstance(current, str) else None, suspects, others, gpus))
    return out


def commented_out(config_dir: str, group: str, option: str | None, key: str) -> str | None:
    """The option file (relative to the config folder's parent) where `key` appears only as a comment."""
    if option is None:
        return None
    pattern = re.compile(rf"^\s*#\s*{re.escape(key)}\s*:", re.M)
    for ext in _YAML:
        path = os.path.join(config_dir, *group.split("/"), option + ext)
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                if pattern.search(f.read()):
                    return os.path.relpath(path, os.path.dirname(config_dir))
        except OSError:
            continue
    return None
