"""The run's settings: defaults, then the case's overrides (as a sweep tool wrote them, JSON text)."""

import json

DEFAULTS = {
    "batch_size": 16,
    "epochs": 2,
    "lr": 0.05,
    "temperature": 0.1,
    "workers": 2,
    "bank": False,
    "momentum_encoder": False,
    "view_pipeline": "full",
    "collate": "default",
    "train_from": 0,
}

CASES = {
    "ok": "{}",
    "cl_gray_expand_inplace": '{"view_pipeline": "gray_then_jitter"}',
    "cl_pil_view_flip": '{"view_pipeline": "second_view_no_tensor"}',
    "cl_temperature_str": '{"temperature": "0.1"}',
    "cl_bank_index_range": '{"bank": true, "train_from": 16}',
    "cl_momentum_lerp_long": '{"momentum_encoder": true}',
    "cl_collate_drop_view": '{"collate": "first_view"}',
}


def load(case: str) -> dict:
    cfg = dict(DEFAULTS)
    cfg.update(json.loads(CASES[case]))
    return cfg
