"""`where` for a Hydra config error: the config file and key the user wrote, which Hydra's message names.

Hydra prints its config errors without a traceback and ends in its own `run_and_report` (`sys.exit(1)`): a
place true and of no help. Its message names what is wrong: the defaults list of a config that asks for an
option its group lacks (`In 'config': Could not find 'model/resnet99'`), or the config node instantiate could
not build (`Error in call to target 'models.MLP': TypeError(... unexpected keyword argument 'dropout')` then
`full_key: model`). The place is that defaults entry, or that node's key in the option file that gave it, as
`conf/config.yaml:4 in defaults.model` and `conf/model/mlp.yaml:3 in model.dropout` (paths from the app's root,
a line and a dotted key, the form of every other place). Read from the text and the app's config folder
(controller side: YAML read as text, never composed; never imports torch).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from crashmatrix.outcome import Outcome
from crashmatrix.verdict.app_paths import app_root, from_root
from crashmatrix.verdict.classify import Verdict
from crashmatrix.verdict.exception_place import exception_place
from crashmatrix.verdict.signature import search

_NOT_FOUND = re.compile(r"^In '(?P<config>[^']+)': Could not find '(?P<group>[^'\n]+)/(?P<option>[^'/\n]+)'", re.M)
_INSTANTIATE = re.compile(r"^Error (?P<how>in call to|locating) target '(?P<target>[^']+)'", re.M)
_FULL_KEY = re.compile(r"^[ \t]*full_key: (?P<key>\S+)", re.M)
_OVERRIDES = re.compile(r"^Error executing job with overrides: \[(?P<list>.*)\]$", re.M)
# the argument a class refused: `unexpected keyword argument 'dropout'`, `missing 1 required positional
# argument: 'width'`
_ARGUMENT = re.compile(
    r"keyword argument '(?P<name>\w+)'|required (?:positional|keyword-only) arguments?: '(?P<req>\w+)'"
)
_YAML = (".yaml", ".yml")
_GLOBAL_PACKAGE = re.compile(r"^#\s*@package\s+_global_\s*$")  # an option file whose keys are the root's
# Hydra refusing a command-line override (`+key=v` where key is there already, `~key` where it is not, a key
# no config has), before the app runs; the key it names (signature.HYDRA_OVERRIDE_REFUSED, with the key)
_OVERRIDE_REFUSED = re.compile(
    r"^(?:Could not override '(?P<key>[^']*)'\.|Could not append to config\. An item is already at "
    r"'(?P<append>[^']*)'\.|Could not delete from config\. '(?P<delete>[^']*)' does not exist)",
    re.M,
)
_DEFAULTS_ENTRY = re.compile(r"^\s*-\s*(?P<group>[\w./-]+)\s*:\s*(?P<option>[\w./-]+)\s*$")  # `- model: mlp`
_SEARCH_PATH = re.compile(r"^\s*provider=main, path=file://(?P<dir>/\S+)\s*$", re.M)  # Hydra's `Config search path:`
# OmegaConf's errors about what a config file holds, raised wherever the value is read (instantiate, the
# program's own `cfg.model.in_features`): a `???` never given (`full_key:` follows), an interpolation to a
# key no config has (`${data.width}`). The place is the config line that holds them.
# Hydra's ConfigCompositionException: a value a config file gives that its schema (a ConfigStore dataclass) or
# the node it merges into refuses, named with the config that gave it (`In 'scenario/big': ValidationError raised
# while composing config:`, then `full_key: data.num_workers`)
_COMPOSING = re.compile(r"^In '(?P<config>[^']+)': (?P<kind>\w+) raised while composing config:", re.M)
_OPTIONS = re.compile(r"^Available options in '[^']+':\n(?P<options>(?:\t.*\n?)+)", re.M)  # Hydra's, after _NOT_FOUND
# Hydra's defaults list choosing a group twice (an experiment's `- /model: wide` where the primary config chose
# model already, without `override`): the entry that chose it again is the user's to mark `override`
_MULTIPLE = re.compile(
    r"^Multiple values for (?P<group>[\w./-]+)\. To override a value use 'override (?P<entry>[^']+)'", re.M
)
_PACKAGE_HEADER = re.compile(r"^#\s*@package\s+(?P<package>\S+)\s*$")
_MANDATORY = re.compile(r"^(?:omegaconf\.errors\.)?MissingMandatoryValue: .*$", re.M)
_INTERPOLATION = re.compile(
    r"^(?:omegaconf\.errors\.)?InterpolationKeyError: Interpolation key '(?P<ref>[^'\n]+)' not found", re.M
)


def config_place(
    text: str, script: str, config_dir: str, config_name: str, arguments: Sequence[str] = (), handled: str = ""
) -> str:
    """The config file and key Hydra's error in text names, as `path:line in key`; "" where it names none or
    the file is not in the app's config folder. arguments: the overrides the run was given; where the option
    came from one, it leads the place (`override model=resnet99; conf/config.yaml:2 in defaults.model`).
    handled: the stack of the exception Hydra handled as it exited (exit_record.handled), where the cell
    recorded it: a class that raised its own error on a value (not on an argument it does not take) is
    placed where it raised, as any exception (`parts.py:91 in __init__`)."""
    root = app_root(os.path.abspath(script))
    refused = search(_OVERRIDE_REFUSED, text)
    if refused:  # an override Hydra refused before the app ran: the place is that override, as it was given
        key = refused["key"] or refused["append"] or refused["delete"] or ""
        given = next((a for a in arguments if key and _override_of(a)[0] == key), "")
        return f"override {given}" if given else ""
    missing = search(_NOT_FOUND, text)
    if missing:
        return _missing_place(missing, text, config_dir, config_name, arguments, root)
    interpolation = search(_INTERPOLATION, text)
    if interpolation:
        return _interpolation_place(text, config_dir, config_name, arguments, interpolation["ref"], root)
    multiple = search(_MULTIPLE, text)
    if multiple:
        return _second_choice_place(config_dir, multiple["entry"], root)
    composing = search(_COMPOSING, text)
    if composing:
        return _composing_place(text[composing.end() :], config_dir, composing["config"], root)
    target = search(_INSTANTIATE, text) or search(_MANDATORY, text)
    full_key = _FULL_KEY.search(text[target.end() :]) if target else None
    if target is None or not full_key:
        return ""
    key = full_key["key"]
    path = _node_file(text, config_dir, config_name, key, arguments)
    if not path:
        return ""
    if target.re is _MANDATORY:  # the `???` itself: the line of the key's last part in the node's file
        line = _key_line(path, key.rpartition(".")[2])
        if line is not None and not _UNGIVEN.search(_lines(path)[line - 1]):
            return ""  # that key has a value in the app's config: the `???` is another file's (one the program read)
        return f"{from_root(path, root)}:{line or 1} in {key}"
    refused = _ARGUMENT.search(text[target.end() :])
    argument = (refused["name"] or refused["req"]) if refused else ""
    raised = exception_place(handled) if handled and not argument and target["how"] == "in call to" else ""
    if raised:
        return raised
    # a `_global_` config (an experiment's) that sets the values this node was called with; a `_target_` that
    # does not resolve is the option file's own
    calling = target["how"] == "in call to"
    overriding = (
        _global_setting(_chosen_files(text, config_dir, config_name, arguments), key, argument) if calling else None
    )
    if overriding is not None:
        path, line = overriding
    else:
        line = (_key_line(path, argument) if argument else None) or _key_line(path, "_target_") or 1
    return f"{from_root(path, root)}:{line} in {key}" + (f".{argument}" if argument else "")


def _global_setting(files: Sequence[str], key: str, argument: str) -> tuple[str, int] | None:
    """(file, line) of the last `# @package _global_` config among files that sets the node at key (a
    top-level `trainer:` block) and, where the class refused an argument, that argument in it: the line of the
    argument, else of the node's key. None where no such config sets it."""
    found = None
    top = re.compile(rf"^{re.escape(key.split('.')[0])}\s*:")
    for path in files:
        lines = _lines(path)
        if not _is_global(lines):
            continue
        at = next((n for n, line in enumerate(lines) if top.match(line)), None)
        if at is None:
            continue
        block = []
        for line in lines[at + 1 :]:
            if line.strip() and not line[:1].isspace():
                break
            block.append(line)
        inner = re.compile(rf"^\s+{re.escape(argument)}\s*:") if argument else None
        hit = next((n for n, line in enumerate(block) if inner and inner.match(line)), None)
        if argument and hit is None:
            continue
        found = (path, at + 2 + hit if hit is not None else at + 1)
    return found


def _interpolation_place(
    text: str, config_dir: str, config_name: str, arguments: Sequence[str], ref: str, root: str
) -> str:
    """The line of the composed configs (the primary one, each group's chosen option) that holds `${ref}`, as
    `conf/model/mlp.yaml:4 in model.hidden`; "" where none does."""
    wanted = "${" + ref + "}"
    files = [("", _config_file(config_dir, config_name))]
    for group in sorted(os.listdir(config_dir)) if os.path.isdir(config_dir) else ():
        if os.path.isdir(os.path.join(config_dir, group)):
            files.append((group, _node_file(text, config_dir, config_name, group, arguments)))
    for group, path in files:
        lines = _lines(path) if path else []
        for number, line in enumerate(lines, 1):
            if wanted in line and ":" in line:
                package = "" if _is_global(lines) else group
                return f"{from_root(path, root)}:{number} in {package + '.' if package else ''}{_dotted_key(lines, number)}"
    return ""


def _composing_place(after: str, config_dir: str, config: str, root: str) -> str:
    """The line of the config Hydra names that gives the value at the message's full_key, as
    `configs/scenario/big.yaml:4 in data.num_workers`; "" where the file or the key is not found."""
    found = _FULL_KEY.search(after)
    path = _config_file(config_dir, config)
    if not (found and path):
        return ""
    key, lines = found["key"], _lines(path)
    package = _package(lines, config)
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "-")) or ":" not in stripped:
            continue
        dotted = _dotted_key(lines, number)
        if (f"{package}.{dotted}" if package else dotted) == key:
            return f"{from_root(path, root)}:{number} in {key}"
    return ""


def _package(lines: list[str], config: str) -> str:
    """Where a config file's keys go in the composed config: its `# @package` header's (`_global_`: the root),
    else its group's path (`data/tabular` goes to `data`), the primary config's to the root."""
    for line in lines[:5]:
        header = _PACKAGE_HEADER.match(line.strip())
        if header:
            name = header["package"]
            if name == "_global_":
                return ""
            if name == "_group_":
                return config.rpartition("/")[0].replace("/", ".")
            return name
    return config.rpartition("/")[0].replace("/", ".")


def _is_global(lines: list[str]) -> bool:
    """Whether a config file's header puts its keys at the root (`# @package _global_`: an experiment's)."""
    return any(_GLOBAL_PACKAGE.match(line.strip()) for line in lines[:5])


def _dotted_key(lines: list[str], number: int) -> str:
    """The key on line `number` (from 1) with the keys of the blocks it is nested in, by indentation:
    `data:` / `  loader:` / `    num_workers: ${x}` is data.loader.num_workers."""
    line = lines[number - 1]
    indent = len(line) - len(line.lstrip())
    parts = [line.split(":", 1)[0].strip().lstrip("- ")]
    for above in reversed(lines[: number - 1]):
        stripped = above.strip()
        depth = len(above) - len(above.lstrip())
        if stripped and not stripped.startswith("#") and depth < indent and stripped.endswith(":"):
            parts.insert(0, stripped[:-1].strip().lstrip("- "))
            indent = depth
    return ".".join(parts)


def _config_file(config_dir: str, name: str) -> str:
    # @hydra.main's config_name with its extension (`train.yaml`, as lightning-hydra-template writes it) or without
    for file in [name] if name.endswith(_YAML) else [name + ext for ext in _YAML]:
        path = os.path.join(config_dir, file)
        if os.path.isfile(path):
            return path
    return ""


def _lines(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()
    except OSError:
        return []


def _second_choice_place(config_dir: str, entry: str, root: str) -> str:
    """`conf/experiment/wide.yaml:3 in defaults.model`: the one defaults entry of the app's configs that chooses
    entry's group and option without `override` (`- /model: wide`, Hydra's message names `model: wide`); "" where
    none or more than one does."""
    group, _, option = (part.strip() for part in entry.partition(":"))
    chooses = re.compile(rf"^\s*-\s*/?{re.escape(group.lstrip('/'))}\s*:\s*{re.escape(option)}\s*(?:#.*)?$")
    found = []
    for folder, _dirs, files in sorted(os.walk(config_dir)) if config_dir else ():
        for name in sorted(f for f in files if f.endswith(_YAML)):
            path = os.path.join(folder, name)
            found += [(path, number) for number, line in enumerate(_lines(path), 1) if chooses.match(line)]
    if len(found) != 1:
        return ""
    path, number = found[0]
    return f"{from_root(path, root)}:{number} in defaults.{group.lstrip('/')}"


def _defaults_line(path: str, group: str) -> int | None:
    """The line of the defaults list's entry for group (`- model: mlp`, `- override /model: mlp`), else the line
    of `defaults:` itself (an option added by `+model=...` has no entry)."""
    entry = re.compile(rf"^\s*-\s*(?:override\s+)?/?{re.escape(group)}(?:@\S+)?\s*:")
    start = None
    for number, line in enumerate(_lines(path), 1):
        if line.startswith("defaults:"):
            start = number
        elif start and entry.match(line):
            return number
    return start


def _override_of(argument: str) -> tuple[str, str]:
    """(key, value) of an override as Hydra's grammar writes it (`model=mlp`, `+model=mlp`, `~model`)."""
    name, _, value = argument.lstrip("+~").partition("=")
    return name, value


def _node_file(text: str, config_dir: str, config_name: str, key: str, arguments: Sequence[str]) -> str:
    """The option file that gave the node at key: its group's option, as the job's overrides chose it or the
    primary config's defaults list does; the primary config itself where key is no group."""
    group = key.split(".")[0]
    if os.path.isdir(os.path.join(config_dir, group)):
        option = _given(text, group, arguments) or _experiment_option(text, config_dir, config_name, group, arguments)
        option = option or _default_option(_config_file(config_dir, config_name), group)
        if option:
            return _config_file(os.path.join(config_dir, group), option)
    return _config_file(config_dir, config_name)


def _given(text: str, group: str, arguments: Sequence[str]) -> str:
    """The option the job's overrides chose for group (Hydra's `Error executing job with overrides` line, else
    the run's arguments); "" where none did."""
    return _chosen(text, group) or next((v for k, v in map(_override_of, arguments) if k == group and v), "")


def _chosen_files(text: str, config_dir: str, config_name: str, arguments: Sequence[str]) -> list[str]:
    """The option files the primary config's defaults list composes, each group's as the overrides or the
    defaults chose it, in the list's order (later ones are applied over earlier ones), then those of groups the
    overrides add (`+experiment=adamw`: Hydra appends them to the list, so they are applied last)."""
    files, listed = [], set()
    for line in _lines(_config_file(config_dir, config_name)):
        entry = _DEFAULTS_ENTRY.match(line)
        if entry and os.path.isdir(os.path.join(config_dir, entry["group"])):
            listed.add(entry["group"])
            option = _given(text, entry["group"], arguments) or entry["option"]
            path = _config_file(os.path.join(config_dir, entry["group"]), option) if option != "null" else ""
            if path:
                files.append(path)
    for argument in arguments:
        group, option = _override_of(argument)
        if (
            argument.startswith("+")
            and group not in listed
            and option
            and os.path.isdir(os.path.join(config_dir, group))
        ):
            path = _config_file(os.path.join(config_dir, group), option)
            if path:
                files.append(path)
    return files


def _group_overrides(
    text: str, config_dir: str, config_name: str, arguments: Sequence[str], group: str
) -> list[tuple[str, int, str]]:
    """(file, line, option) of each defaults entry in a chosen config that overrides group (`- override
    /model: big`: an experiment config, as the lightning-hydra-template lays them out), in the order Hydra
    applies them: the last one wins."""
    wanted = re.compile(rf"^\s*-\s*override\s+/{re.escape(group)}\s*:\s*(?P<option>[\w./-]+)\s*$")
    return [
        (path, number, said["option"])
        for path in _chosen_files(text, config_dir, config_name, arguments)
        for number, line in enumerate(_lines(path), 1)
        if (said := wanted.match(line))
    ]


def _experiment_option(text: str, config_dir: str, config_name: str, group: str, arguments: Sequence[str]) -> str:
    """The option another chosen config sets for group in its own defaults list; "" where none does."""
    entries = _group_overrides(text, config_dir, config_name, arguments, group)
    return entries[-1][2] if entries else ""


def _missing_place(
    missing: re.Match, text: str, config_dir: str, config_name: str, arguments: Sequence[str], root: str
) -> str:
    """`conf/config.yaml:2 in defaults.model` for an option its group lacks (`In 'config': Could not find
    'model/resnet99'`): the defaults entry that asked for it, led by the override that gave it where one did."""
    group, option = missing["group"], missing["option"]
    path = _config_file(config_dir, missing["config"])
    line = _defaults_line(path, group) if path else None
    if not (path and line):
        return ""
    given = next((a for a in arguments if _override_of(a) == (group, option)), "")
    overriding = None
    if not given and path == _config_file(config_dir, config_name):  # not the option the primary's entry names
        overriding = _overriding_entry(text, config_dir, config_name, arguments, group, option)
    if overriding is not None:  # Hydra names the primary config, whose entry an experiment's override replaced
        path, line = overriding
    key = group.replace("/", ".")
    return (f"override {given}; " if given else "") + f"{from_root(path, root)}:{line} in defaults.{key}"


def _overriding_entry(
    text: str, config_dir: str, config_name: str, arguments: Sequence[str], group: str, option: str
) -> tuple[str, int] | None:
    """(file, line) of the last chosen config's entry that overrides group with option (`- override /loss:
    focal`): where an option Hydra could not find was asked for, when the primary config's own entry names
    another. None where no chosen config asks for it."""
    asked = [
        (path, line)
        for path, line, said in _group_overrides(text, config_dir, config_name, arguments, group)
        if said == option
    ]
    return asked[-1] if asked else None


def _chosen(text: str, group: str) -> str:
    said = search(_OVERRIDES, text)
    for item in re.findall(r"'([^']*)'", said["list"]) if said else ():
        name, value = _override_of(item)
        if name == group and value:
            return value
    return ""


def _default_option(path: str, group: str) -> str:
    line = _defaults_line(path, group) if path else None
    if not line:
        return ""
    value = _lines(path)[line - 1].split(":", 1)[-1].strip()
    return "" if value in ("", "null", "???") else value


def placed(verdict: Verdict, where: str, text: str, matrix, argv: Sequence[str], handled: str = "") -> str:
    """`where` for a Hydra config error: its config file and key (signed_by_place then signs the verdict with
    it); any other verdict's `where` as it is. matrix: the run's, whose command may be a Hydra app; argv: the
    run's."""
    if verdict.outcome is not Outcome.FAIL or not is_config_error(text):
        return where
    from crashmatrix.app.preflight import hydra_app  # only for a Hydra config error: nothing more at start-up

    app = hydra_app(matrix)
    if app is None or isinstance(app, str):
        return where
    script = os.path.abspath(app.script)
    at = next((i for i, a in enumerate(argv) if os.path.abspath(a) == script), None)
    given = list(argv[at + 1 :]) if at is not None else []
    return config_place(text, script, app.config_dir, app.config_name, given, handled) or where


def is_config_error(text: str) -> bool:
    """Whether text holds a Hydra config error this module places (a missing option, a node instantiate could
    not build, a `???`, an interpolation to a missing key, a value its schema refused as the config composed)."""
    return any(
        search(p, text)
        for p in (_NOT_FOUND, _INSTANTIATE, _MANDATORY, _INTERPOLATION, _OVERRIDE_REFUSED, _COMPOSING, _MULTIPLE)
    )


def placed_from_log(verdict: Verdict, where: str, text: str) -> str:
    """`where` for a Hydra config error read from a log alone (`crashmatrix diagnose`): the app is the script
    of the log's traceback that holds `@hydra.main`, where that file is on this machine, else one below the
    folder diagnose runs in whose configs hold what the message names; the overrides are the ones Hydra's
    `Error executing job with overrides` names. Any other verdict's `where` as it is."""
    if verdict.outcome is not Outcome.FAIL or not is_config_error(text):
        return where
    from crashmatrix.app.hydra_main import find_hydra_main
    from crashmatrix.errors import BadInput
    from crashmatrix.verdict.parsed import read_output

    said = search(_OVERRIDES, text)
    given = re.findall(r"'([^']*)'", said["list"]) if said else []
    scripts = dict.fromkeys(c.path for t in read_output(text).tracebacks for c in t.calls if c.path.endswith(".py"))
    for script in scripts:
        if "-packages/" in script or not os.path.isfile(script):
            continue
        try:
            main = find_hydra_main(script)
        except (BadInput, OSError, SyntaxError, ValueError):
            continue
        return config_place(text, script, main.config_dir, main.config_name, given) or where
    # no traceback (a defaults list's missing option fails before the app runs): Hydra's own search path
    # names the app's config folder, and its message the config that asked
    folder, asked = search(_SEARCH_PATH, text), search(_NOT_FOUND, text)
    if folder and asked and os.path.isdir(folder["dir"]):
        primary = _config_file(folder["dir"], asked["config"])
        return (primary and config_place(text, primary, folder["dir"], asked["config"], given)) or where
    # Hydra's short error names no file at all: the app where diagnose is run (a user's project root), whose
    # configs hold what the message names
    for script in _hydra_scripts_below(os.getcwd()):
        try:
            main = find_hydra_main(script)
        except (BadInput, OSError, SyntaxError, ValueError):
            continue
        if not _holds_what_it_names(text, main.config_dir):
            continue  # another project's app: its configs are not the ones the message speaks of
        placed_here = config_place(text, script, main.config_dir, main.config_name, given)
        if placed_here:
            return placed_here
    return where


def _holds_what_it_names(text: str, config_dir: str) -> bool:
    """Whether an app's config folder holds what Hydra's message names: the options of the group it lists (a
    missing option), the config it names (`In 'scenario/x'`), else the `_target_`, the `${...}` or the `key: ???`
    in one of its files."""
    missing = search(_NOT_FOUND, text)
    if missing:  # every app has a `config`: the group's options Hydra listed must be this app's
        listed = search(_OPTIONS, text)
        group = os.path.join(config_dir, missing["group"])
        here = (
            {os.path.splitext(n)[0] for n in os.listdir(group) if n.endswith(_YAML)} if os.path.isdir(group) else set()
        )
        return listed is not None and set(listed["options"].split()) == here
    composing = search(_COMPOSING, text)
    if composing:
        return bool(_config_file(config_dir, composing["config"]))
    multiple = search(_MULTIPLE, text)
    if multiple:  # a defaults list of this app's chooses the option without `override`
        return bool(_second_choice_place(config_dir, multiple["entry"], config_dir))
    target, interpolation, mandatory = (
        search(_INSTANTIATE, text),
        search(_INTERPOLATION, text),
        search(_MANDATORY, text),
    )
    key = _FULL_KEY.search(text[mandatory.end() :]) if mandatory else None
    if target:
        wanted = re.compile(re.escape(target["target"]))
    elif interpolation:
        wanted = re.compile(re.escape("${" + interpolation["ref"] + "}"))
    elif key:
        wanted = re.compile(rf"^\s*{re.escape(key['key'].rpartition('.')[2])}\s*:\s*\?\?\?", re.M)
    else:
        return False
    for folder, _dirs, files in os.walk(config_dir):
        for name in files:
            if name.endswith(_YAML) and wanted.search("\n".join(_lines(os.path.join(folder, name)))):
                return True
    return False


_NOT_AN_APP_DIR = ("outputs", "multirun", "site-packages", "node_modules", "__pycache__", "venv", "env")


def _hydra_scripts_below(top: str, depth: int = 3, most: int = 400) -> list[str]:
    """The Python files at most `depth` folders below top whose text holds `@hydra.main` (at most `most` files
    read; hidden folders, environments and Hydra's own output folders skipped)."""
    found, read = [], 0
    for folder, dirs, files in os.walk(top):
        level = os.path.relpath(folder, top).count(os.sep) + (folder != top)
        dirs[:] = (
            [] if level >= depth else sorted(d for d in dirs if not d.startswith(".") and d not in _NOT_AN_APP_DIR)
        )
        for name in sorted(files):
            if not name.endswith(".py") or read >= most:
                continue
            read += 1
            path = os.path.join(folder, name)
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    if "@hydra.main" in f.read(200_000):
                        found.append(path)
            except OSError:
                continue
    return found


_UNGIVEN = re.compile(r":\s*['\"]?\?\?\?['\"]?\s*(?:#.*)?$")  # `key: ???`, OmegaConf's value to be given


def _key_line(path: str, key: str) -> int | None:
    top = re.compile(rf"^\s*{re.escape(key)}\s*:")
    return next((n for n, line in enumerate(_lines(path), 1) if top.match(line)), None)
