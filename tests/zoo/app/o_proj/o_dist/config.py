"""Settings: defaults, then `key=value` arguments (the program's own parsing, no Hydra)."""

import sys

DEFAULTS = {
    "case": "base",
    "steps": 4,
    "batch_size": 8,
    "lr": 0.1,
    "ckpt_dir": "/tmp/o_dist_ckpt",
    "init_file": "",  # empty: a fresh file per launch
    "barrier_timeout_s": 3,
    "pg_timeout_s": 1800,
}


def parse(argv: list[str] | None = None) -> dict:
    cfg = dict(DEFAULTS)
    for arg in sys.argv[1:] if argv is None else argv:
        key, value = arg.split("=", 1)
        default = DEFAULTS.get(key)
        cfg[key] = type(default)(value) if isinstance(default, (int, float)) else value
    return cfg
