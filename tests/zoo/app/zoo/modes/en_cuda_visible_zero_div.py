"""The program decides it has GPUs from CUDA_VISIBLE_DEVICES (set to "0,1" by the launcher on a CPU-only box)
and splits its global batch by torch.cuda.device_count(), which is 0 here."""

import os

import torch

GLOBAL_BATCH = 64


def main() -> None:
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "")
    multi_gpu = len([d for d in visible.split(",") if d]) > 1
    print(f"CUDA_VISIBLE_DEVICES={visible!r} multi_gpu={multi_gpu}", flush=True)
    if multi_gpu:
        per_device = GLOBAL_BATCH // torch.cuda.device_count()
    else:
        per_device = GLOBAL_BATCH
    x = torch.randn(per_device, 8)
    print(f"per-device batch {x.shape[0]}", flush=True)
