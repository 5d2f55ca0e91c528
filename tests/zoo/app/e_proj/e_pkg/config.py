"""Settings: configs/base.yaml, then configs/experiments/<experiment>.yaml over it, then key=value arguments."""

import copy
import os

import yaml


def merge(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for key, value in (over or {}).items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def parse_args(argv: list) -> dict:
    args = {}
    for arg in argv:
        key, _, value = arg.partition("=")
        args[key] = yaml.safe_load(value) if value else value
    return args


def load(argv: list) -> dict:
    args = parse_args(argv)
    experiment = args.pop("experiment", "baseline")
    with open(os.path.join("configs", "base.yaml")) as f:
        cfg = yaml.safe_load(f)
    with open(os.path.join("configs", "experiments", f"{experiment}.yaml")) as f:
        cfg = merge(cfg, yaml.safe_load(f))
    for dotted, value in args.items():
        node = cfg
        *parents, leaf = dotted.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    cfg["experiment"] = experiment
    return cfg
