"""A collate that builds a nested dict: tensors stacked, per-sample metadata gathered into lists."""

import torch


def nested_collate(samples: list[dict]) -> dict:
    out = {
        "x": torch.stack([s["x"] for s in samples]),
        "y": torch.tensor([s["y"] for s in samples]),
        "meta": {},
    }
    for key in samples[0]["meta"]:
        out["meta"][key] = [s["meta"][key] for s in samples]
    return out
