"""Every setting comes from an environment variable, read here once. `Z_PRESET` names a preset whose values
are taken for the variables the environment does not set."""

import os
import tempfile
from dataclasses import dataclass

PRESETS = {
    "baseline": {},
    "z_env_lr_string": {"Z_LR": "0.02"},
    "z_stage_optim_resume": {"Z_STAGES": "sgd,adam"},
    "z_collate_mask_none": {"Z_MASKS": "0"},
    "z_plateau_no_metric": {"Z_SCHED": "plateau"},
    "z_amp_bf16_numpy": {"Z_AMP": "1"},
    "z_bucket_len_float": {"Z_BUCKETS": "1"},
}


@dataclass
class Config:
    preset: str
    lr: float
    batch: int
    epochs: int
    stages: list
    sched: str
    amp: bool
    masks: bool
    buckets: bool
    ckpt_dir: str


def load() -> Config:
    preset = os.environ.get("Z_PRESET", "baseline")
    for key, value in PRESETS[preset].items():
        os.environ.setdefault(key, value)
    return Config(
        preset=preset,
        lr=os.environ.get("Z_LR", 0.05),
        batch=int(os.environ.get("Z_BATCH", "8")),
        epochs=int(os.environ.get("Z_EPOCHS", "2")),
        stages=os.environ.get("Z_STAGES", "sgd").split(","),
        sched=os.environ.get("Z_SCHED", "step"),
        amp=os.environ.get("Z_AMP", "0") == "1",
        masks=os.environ.get("Z_MASKS", "1") == "1",
        buckets=os.environ.get("Z_BUCKETS", "0") == "1",
        ckpt_dir=os.environ.get("Z_CKPT_DIR") or tempfile.mkdtemp(prefix="ztrain-ckpt-"),
    )
