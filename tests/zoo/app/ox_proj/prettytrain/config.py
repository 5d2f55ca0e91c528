"""Settings: defaults, then the mode's preset, then key=value arguments."""

import argparse

DEFAULTS = dict(
    features=32,
    hidden=48,
    num_classes=6,
    data_classes=6,
    dropout=0.1,
    norm_dim=0,
    smooth=0.0,
    optim="sgd",
    lr=0.1,
    betas=(0.9, 0.999),
    workers=0,
    samples=64,
    batch=8,
    epochs=2,
    cache="",
    layout="dense",
    on_error="raise",
)
PRESETS = {
    "ox_hook_onehot_classes": dict(num_classes=5, smooth=0.1),
    "ox_logexc_dropout_percent": dict(dropout=15),
    "ox_tqdm_worker_frombuffer": dict(cache="raw", workers=2),
    "ox_chain_betas_float": dict(optim="adam", lr=3e-4, betas=0.9),
    "ox_exit1_summary_layernorm": dict(norm_dim=64, on_error="summary"),
    "ox_redirect_worker_segv": dict(cache="native", workers=2, on_error="redirect"),
    "ox_note_sparse_pool": dict(layout="sparse"),
}


class ConfigError(Exception):
    pass


def load(argv: list[str]) -> dict:
    p = argparse.ArgumentParser(prog="train")
    p.add_argument("--mode", default="")
    args, rest = p.parse_known_args(argv)
    cfg = dict(DEFAULTS, **PRESETS.get(args.mode, {}), mode=args.mode)
    for kv in rest:
        k, v = kv.split("=", 1)
        cfg[k] = type(cfg[k])(v) if k in cfg else v
    return cfg
