"""Reads a YAML config (with `base:` files under it) and applies key=value overrides."""

import tempfile
from pathlib import Path

import yaml


def merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for key, value in over.items():
        out[key] = merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def read(path: Path) -> dict:
    cfg = yaml.safe_load(path.read_text()) or {}
    if "base" in cfg:
        cfg = merge(read(path.parent / cfg.pop("base")), cfg)
    return cfg


def load_config(root: Path, config: str, overrides: list[str]) -> dict:
    pairs = [item.split("=", 1) for item in overrides]
    for key, value in pairs:
        if key == "config":
            config = f"configs/{value}.yaml"
    cfg = read(root / config)
    for key, value in pairs:
        if key == "config":
            continue
        *parents, last = key.split(".")
        node = cfg
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = yaml.safe_load(value)
    cfg["trainer"].setdefault("default_root_dir", tempfile.mkdtemp(prefix="w_proj-"))
    return cfg
