"""Model OK: the train probe's DBNet forward/backward on synthetic data, no DataLoader.

Between cuda_basics (the hardware) and train (the whole pipeline): if this
passes and train fails, suspect the data path, the workers or wandb, not the
model, AMP or cuDNN.
"""

from __future__ import annotations

from crashmatrix.probes import common, dbnet

DESCRIPTION = "model OK: the train model's forward/backward/optimizer step on synthetic batches, no DataLoader"

PARAMS: dict = {**common.COMMON_DEFAULTS, "steps": 10, "batch_size": 8, **dbnet.MODEL_PARAMS}


def main(params: dict) -> dict:
    import torch

    p = common.with_defaults(params, PARAMS)
    device = common.device_for(p)
    precision = common.Precision(p["precision"], device)
    steps, batch_size, size = int(p["steps"]), int(p["batch_size"]), int(p["image_size"])
    seed, inject_nan_at = int(p["seed"]), int(p["inject_nan_at"])
    torch.manual_seed(seed)
    model = dbnet.build_model(int(p["width"])).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=float(p["lr"]))
    # a few fixed batches, generated once, reused in turn (as an epoch would)
    batches = [dbnet.synthetic_batch(batch_size, size, seed, offset=i * batch_size) for i in range(min(steps, 4))]
    batches = [{k: v.to(device) for k, v in b.items()} for b in batches]
    metrics = common.Metrics()
    model.train()
    for step in range(steps):
        dbnet.train_step(
            model, optimizer, precision, batches[step % len(batches)], step, metrics, make_nan=step == inject_nan_at
        )
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    params_count = sum(t.numel() for t in model.parameters())
    return metrics.result(device=str(device), precision=precision.label, parameters=params_count)
