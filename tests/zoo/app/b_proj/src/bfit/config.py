"""Settings from `key=value` arguments, parsed here (no Hydra). `case=NAME` names a preset whose values are taken
for the keys the command line does not set."""

import os
import tempfile
from dataclasses import dataclass, fields

PRESETS = {
    "baseline": {},
    "b_pil_float_array": {"workers": "2", "augment": "true", "cache": "normalized"},
    "b_df_loc_filtered": {"workers": "2", "drop_unlabelled": "true"},
    "b_warn_error_target_size": {"strict": "true", "head": "column"},
    "b_callback_signature": {"callbacks": "history,early_stop"},
    "b_logged_then_leaf_inplace": {"sample_grid": "true", "shrink_perturb": "true"},
    "b_pass_logged_exception": {"summary": "true"},
}


@dataclass
class Config:
    case: str = "baseline"
    epochs: int = 2
    batch: int = 8
    workers: int = 0
    lr: float = 0.05
    n: int = 40
    augment: bool = False
    cache: str = "uint8"
    drop_unlabelled: bool = False
    strict: bool = False
    head: str = "flat"
    callbacks: str = "history"
    sample_grid: bool = False
    shrink_perturb: bool = False
    summary: bool = False
    out_dir: str = ""


def _value(kind, text: str):
    if kind is bool:
        return text.lower() in ("1", "true", "yes")
    return kind(text)


def parse(argv: list[str]) -> Config:
    given = dict(a.split("=", 1) for a in argv if "=" in a)
    values = {**PRESETS[given.get("case", "baseline")], **given}
    kinds = {f.name: f.type for f in fields(Config)}
    cfg = Config(**{k: _value(kinds[k], v) for k, v in values.items() if k in kinds})
    if not cfg.out_dir:
        cfg.out_dir = os.path.join(tempfile.gettempdir(), f"bfit-{os.getpid()}")
    return cfg
