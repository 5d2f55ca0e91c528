"""Child of crashmatrix's preflight: compose a Hydra app's config once for each set of overrides.

Run by path with the cells' interpreter (`python preflight_child.py < request.json`), so it needs
nothing of crashmatrix, and in its own process so the controller never imports Hydra or the app.
It imports Hydra only. The request: {"config_dir", "config_name", "sets": [[override, ...], ...]}.
The answer, one JSON object on stdout:
  {"status": "ok", "composed": N}
  {"status": "skip", "reason": "..."}        the config does not compose even without overrides
  {"status": "refused", "set": i, "override": j, "kind": "...", "message": "...", "options": [...]}
`options`: a config group's options, or for a missing key the config's key it most likely misspells.

Speed (100 sets in well under 5 s): Hydra builds the defaults list and merges every config file
for each compose, about 40 ms. Sets usually differ in key overrides only, so the config is
composed once per distinct set of group choices, and each set's key overrides are then applied to
a copy with Hydra's own function, in Hydra's own order (groups first, then keys).
"""

from __future__ import annotations

import os
import sys

# Run by path, Python puts this folder first on sys.path, where a module of runner's named like one
# of the standard library's (for Hydra) would shadow it.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

import copy  # noqa: E402  (after the sys.path edit above, on purpose)
import json  # noqa: E402


class Refused(Exception):
    """The set's override at index `override` is refused; `choices`: the groups' choices without it."""

    def __init__(self, override: int, error: Exception, choices: dict | None = None):
        super().__init__(str(error))
        self.override, self.error, self.choices = override, error, choices or {}


def _one_line(error: BaseException) -> str:
    """Hydra's message without the search path it appends to a missing config."""
    text = " ".join(str(error).split()).split(" Config search path")[0]
    return text or type(error).__name__


class Composer:
    def __init__(self, config_name: str):
        from hydra.core.global_hydra import GlobalHydra
        from hydra.core.override_parser.overrides_parser import OverridesParser

        self.config_name = config_name
        self.loader = GlobalHydra.instance().config_loader()
        self.parser = OverridesParser.create()
        # (group choices, Hydra's config needed) -> (config, the groups' choices), or Hydra's refusal
        self.cache: dict = {}
        self.extra: list | None = None  # what _without_hydra adds: [] or ["~hydra"], once known

    def _full(self, overrides: list):
        from hydra import compose

        return compose(config_name=self.config_name, overrides=list(overrides), return_hydra_config=True)

    def config(self, overrides: list):
        """The config the set composes (its `hydra` node only where Hydra's config took part); Refused(index
        of the first override Hydra refuses, its error) when it does not compose."""
        try:
            from hydra._internal.config_loader_impl import ConfigLoaderImpl

            parsed = self.parser.parse_overrides(overrides=list(overrides))
            groups, keys = self._split(parsed)
        except Exception:  # noqa: BLE001 (an override Hydra cannot parse, another Hydra: its own compose)
            groups, keys = None, None
        if groups is None or keys is None:
            return self._plain(overrides)
        needs_hydra = any(o.key_or_group.split(".")[0].split("/")[0] == "hydra" for o in parsed)
        base, choices = self._composed(tuple(o.input_line for o in groups), needs_hydra, overrides)
        cfg = copy.deepcopy(base)
        for o in keys:
            try:
                ConfigLoaderImpl._apply_overrides_to_config([o], cfg)
            except Exception as e:  # noqa: BLE001 (Hydra's refusal is the answer)
                raise Refused(overrides.index(o.input_line), e, choices) from None
        return cfg

    def _split(self, parsed: list):
        """(group choices, key overrides) as Hydra splits them; (None, None) where the fast path does not
        apply (a sweep, a search path or a package: the plain compose handles those)."""
        # ConfigLoaderImpl has it since Hydra 1.1; the abstract ConfigLoader does not declare it.
        repo = self.loader.repository  # type: ignore[attr-defined]
        groups, keys = [], []
        for o in parsed:
            if o.is_sweep_override() or o.package is not None or o.key_or_group.startswith("hydra.searchpath"):
                return None, None
            if repo.group_exists(o.key_or_group) and not isinstance(o.value(), dict):
                groups.append(o)
            else:
                keys.append(o)
        return groups, keys

    def _composed(self, groups: tuple, needs_hydra: bool, overrides: list) -> tuple:
        """The config composed with these group choices, once: (config, the groups' choices)."""
        key = (groups, needs_hydra)
        if key not in self.cache:
            found: tuple | Exception | None = None if needs_hydra else self._without_hydra(list(groups))
            if found is None:
                try:
                    cfg = self._full(list(groups))
                    found = (cfg, dict(cfg.hydra.runtime.choices))
                except Exception as e:  # noqa: BLE001
                    found = e
            self.cache[key] = found
        if isinstance(self.cache[key], Exception):
            self._plain(overrides)  # finds which override; raises Refused
            raise Refused(0, self.cache[key])
        return self.cache[key]

    def _without_hydra(self, groups: list) -> tuple | None:
        """The app's own config without Hydra's (a quarter of the time); None where Hydra's config takes
        part (a `hydra:` node, an `override hydra/...`) or anything fails: the full compose decides.

        An app whose defaults list picks its own `hydra: default` (as the Lightning template does) is
        composed with `~hydra`: that part is Hydra's, the same in every set, and the full compose of
        the app's config without overrides has checked it."""
        tries = [self.extra] if self.extra is not None else [[], ["~hydra"]]
        for extra in tries:
            found = self._own_config(groups + extra)
            if found is not None:
                self.extra = extra
                return found
        return None

    def _own_config(self, overrides: list) -> tuple | None:
        try:
            from hydra._internal.config_repository import CachingConfigRepository
            from hydra._internal.defaults_list import create_defaults_list
            from omegaconf import OmegaConf

            repo = CachingConfigRepository(self.loader.repository)  # type: ignore[attr-defined]
            defaults = create_defaults_list(
                repo=repo,
                config_name=self.config_name,
                overrides_list=self.parser.parse_overrides(overrides=overrides),
                prepend_hydra=False,
                skip_missing=False,
            )
            cfg = self.loader._compose_config_from_defaults_list(defaults=defaults.defaults, repo=repo)  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001
            return None
        if "hydra" in cfg:
            return None
        OmegaConf.set_struct(cfg, True)  # as Hydra does before it applies key overrides
        return cfg, dict(defaults.overrides.known_choices)

    def _plain(self, overrides: list):
        """Hydra's own compose; on refusal, the override that breaks it: the shortest failing prefix."""
        try:
            return self._full(overrides)
        except Exception as e:  # noqa: BLE001
            error = e
        for j in range(1, len(overrides)):
            try:
                self._full(overrides[:j])
            except Exception as e:  # noqa: BLE001
                raise Refused(j - 1, e) from None
        raise Refused(len(overrides) - 1, error)


def _kind(refused: Refused, override: str, loader) -> tuple[str, list]:
    """What went wrong, in words the controller turns into a fix, and a group's options where they help."""
    error, text = refused.error, str(refused.error)
    key = override.lstrip("+~").split("=", 1)[0].split("@", 1)[0]
    if type(error).__name__ == "MissingConfigException" and "Could not find '" in text:
        group = text.split("Could not find '", 1)[1].split("'", 1)[0].rsplit("/", 1)[0]
        return "no_option", sorted(loader.get_group_options(group))
    if "No match in the defaults list" in text:
        return "not_in_defaults", sorted(loader.get_group_options(key))
    if "Config group override must be a string" in text:
        return "group_null", sorted(loader.get_group_options(key))
    if "An item is already at" in text:
        return "exists", []
    if "Could not delete from config" in text:
        return "no_delete", []
    if "To append to your config use +" in text:
        parts = key.split(".")
        for n in range(len(parts) - 1, 0, -1):
            group = "/".join(parts[:n])
            if group not in refused.choices:
                continue
            # `logger.wandb.offline` where the logger group has no choice (logger: null by default)
            if refused.choices[group] is None:
                return "group_unchosen:" + ".".join(parts[:n]), sorted(loader.get_group_options(group))
            return f"missing_key:{group}={refused.choices[group]}", []
        return "missing_key", []
    return "other", []


def near_key(config, key: str) -> str | None:
    """The config's key that `key` most likely misspells (`trainer.max_epoch` -> `trainer.max_epochs`),
    each dotted part matched at its own level; None where a part has no close match or `key` exists."""
    import difflib

    from omegaconf import DictConfig, OmegaConf

    node = OmegaConf.to_container(config, resolve=False) if isinstance(config, DictConfig) else config
    found, changed = [], False
    for part in key.split("."):
        if not isinstance(node, dict):
            return None
        if part not in node:
            close = difflib.get_close_matches(part, [str(k) for k in node], n=1, cutoff=0.8)
            if not close:
                return None
            part, changed = close[0], True
        found.append(part)
        node = node[part]
    return ".".join(found) if changed else None


def initialized(config_dir: str):
    """Hydra's compose API on the app's config folder (version_base from Hydra 1.2 on)."""
    from hydra import initialize_config_dir

    try:
        return initialize_config_dir(config_dir=config_dir, version_base=None)
    except TypeError:
        return initialize_config_dir(config_dir=config_dir)


def _near_options(composer: Composer, overrides: list, refused: int) -> list:
    """[the key the refused override most likely misspells], composed with the overrides before it
    (the group choices come first, so its group's option is in); [] where none is close."""
    key = overrides[refused].split("=", 1)[0].lstrip("+~")
    try:
        near = near_key(composer.config(overrides[:refused]), key)
    except Exception:  # noqa: BLE001 (a suggestion is a nicety: no suggestion rather than no answer)
        return []
    return [near] if near else []


def main(request: dict) -> dict:
    try:
        context = initialized(request["config_dir"])
    except Exception as e:  # noqa: BLE001
        return {"status": "skip", "reason": f"Hydra does not start here ({type(e).__name__}: {e})"}
    with context:
        composer = Composer(request["config_name"])
        try:
            composer._full([])
        except Exception as e:  # noqa: BLE001 (the app's own config needs the app's process)
            return {"status": "skip", "reason": _one_line(e)}
        for i, overrides in enumerate(request["sets"]):
            try:
                composer.config(overrides)
            except Refused as r:
                kind, options = _kind(r, overrides[r.override], composer.loader)
                if kind.startswith("missing_key"):
                    options = _near_options(composer, overrides, r.override)
                message = _one_line(r.error.__cause__ or r.error) if kind == "other" else _one_line(r.error)
                return {
                    "status": "refused",
                    "set": i,
                    "override": r.override,
                    "kind": kind,
                    "message": message,
                    "options": options,
                }
    return {"status": "ok", "composed": len(request["sets"]), "configs": len(composer.cache)}


if __name__ == "__main__":
    json.dump(main(json.load(sys.stdin)), sys.stdout)
