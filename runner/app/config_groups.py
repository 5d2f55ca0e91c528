"""A Hydra app's config groups, read from its config folder: which options each offers, which are suspects.

A group is a folder of option files (`logger/wandb.yaml`, `trainer/ddp.yaml`); the app picks one
option per group in its defaults list (`logger: null`, `trainer: default`), and a run picks another
with `logger=wandb`. An option is a suspect when its name or its (uncommented) text names a wandb
logger or a GPU / distributed trainer: the settings the crash reports blame.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

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


def _why(config_dir: str, group: str, option: str) -> str | None:
    """What kind of suspect an option is, by its name first, then by its text without comments."""
    text = option
    for ext in _YAML:
        path = os.path.join(config_dir, *group.split("/"), option + ext)
        if os.path.isfile(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                text += "\n" + "\n".join(line.split("#", 1)[0] for line in f)
            break
    return next((why for why, pattern in _SUSPECTS.items() if pattern.search(text)), None)


def suspect_groups(config_dir: str, choices: dict) -> list[GroupSuspect]:
    """The groups with a suspect among their options, current choice as the app's defaults list has it."""
    out = []
    for group, names in options(config_dir).items():
        whys = {name: _why(config_dir, group, name) for name in names}
        suspects = {name: why for name, why in whys.items() if why}
        if not suspects:
            continue
        current = choices.get(group)
        others = [name for name in names if not whys[name]]
        out.append(GroupSuspect(group, current if isinstance(current, str) else None, suspects, others))
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
