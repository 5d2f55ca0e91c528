"""The crash reports' pipeline in miniature: OCR text detection (DBNet-style).

A small ResNet-style encoder, an FPN decoder and a DB head (probability and
threshold maps, differentiable binarisation), trained with dice + BCE + L1 on
synthetic "text line" images through a real DataLoader, then a validation pass
that logs the input and the predicted map of every batch to wandb, as the
reported runs did. Every contract axis is honoured (see common.py); the model, its
loss and the training step are in dbnet.py, shared with the model and ddp probes.

`data: files` first writes the samples to ./data-<hash>/ under the cwd (the
cell's log dir) as .npy images and .pt targets, and the Dataset reads them back
from disk in the workers, as the real pipeline read image files.
"""

from __future__ import annotations

import functools
import hashlib
import os

from crashmatrix.incell import knobs
from crashmatrix.probes import common, dbnet

DESCRIPTION = "OCR text-detection training (ResNet+FPN+DB head) through DataLoader, AMP, wandb image logging"

PARAMS: dict = {
    **common.COMMON_DEFAULTS,
    "steps": 20,
    "batch_size": 8,
    "image_size": 64,
    "width": 16,  # channels of the first encoder stage
    "lr": 1e-3,
    "val_steps": 2,
    "data": "synthetic",  # synthetic | files
    "samples": 64,  # dataset length (the loader cycles through it)
    "seed": 0,
    "inject_nan_at": -1,  # step at which the loss is forced to NaN (tests)
    "check_batches": True,  # NaN/Inf/range check of every batch
}


# ---------------------------------------------------------------------------- data


class SyntheticText:
    """Map-style dataset generated on the fly (plain class: picklable under spawn)."""

    def __init__(self, samples: int, size: int, seed: int):
        self.samples, self.size, self.seed = samples, size, seed

    def __len__(self) -> int:
        return self.samples

    def __getitem__(self, index: int):
        image, prob, thresh, thresh_mask = dbnet.make_sample(index, self.size, self.seed)
        return {"image": image, "prob": prob, "thresh": thresh, "thresh_mask": thresh_mask}


class FileText:
    """Reads what write_files() wrote: image_<i>.npy and target_<i>.pt."""

    def __init__(self, folder: str, samples: int):
        self.folder, self.samples = folder, samples

    def __len__(self) -> int:
        return self.samples

    def __getitem__(self, index: int):
        import numpy as np
        import torch

        image = torch.from_numpy(np.load(os.path.join(self.folder, f"image_{index:05d}.npy")))
        target = torch.load(os.path.join(self.folder, f"target_{index:05d}.pt"))
        return {"image": image, **target}


def write_files(samples: int, size: int, seed: int) -> str:
    """Write the synthetic samples under ./data-<hash>/ once; return the folder."""
    import numpy as np
    import torch

    key = hashlib.sha1(f"{samples}-{size}-{seed}".encode()).hexdigest()[:8]
    folder = os.path.abspath(f"data-{key}")
    done = os.path.join(folder, "DONE")
    if os.path.exists(done):
        return folder
    os.makedirs(folder, exist_ok=True)
    for i in range(samples):
        image, prob, thresh, thresh_mask = dbnet.make_sample(i, size, seed)
        np.save(os.path.join(folder, f"image_{i:05d}.npy"), image.numpy())
        torch.save(
            {"prob": prob, "thresh": thresh, "thresh_mask": thresh_mask}, os.path.join(folder, f"target_{i:05d}.pt")
        )
    open(done, "w").close()
    return folder


# ----------------------------------------------------------------------------- main


def _to(batch: dict, device, non_blocking: bool) -> dict:
    return {k: v.to(device, non_blocking=non_blocking) for k, v in batch.items()}


def _image_for_wandb(t):
    """CHW float tensor in [0,1] -> HWC uint8 numpy."""
    return (t.detach().float().clamp(0, 1) * 255).byte().permute(1, 2, 0).cpu().numpy()


def _dataset(data_mode: str, samples: int, size: int, seed: int):
    if data_mode == "synthetic":
        return SyntheticText(samples, size, seed)
    if data_mode == "files":
        return FileText(write_files(samples, size, seed), samples)
    raise ValueError(f"data must be synthetic or files; got {data_mode!r}")


def main(params: dict) -> dict:
    import torch
    from torch.utils.data import DataLoader

    p = common.with_defaults(params, PARAMS)
    device = common.device_for(p)
    precision = common.Precision(p["precision"], device)
    size, samples, seed = int(p["image_size"]), int(p["samples"]), int(p["seed"])
    torch.manual_seed(seed)
    dataset = _dataset(str(p["data"]), samples, size, seed)
    kwargs = common.loader_kwargs(p)
    loader = DataLoader(dataset, shuffle=True, drop_last=True, generator=torch.Generator().manual_seed(seed), **kwargs)
    to_device = functools.partial(_to, device=device, non_blocking=kwargs["pin_memory"] and device.type == "cuda")

    model = dbnet.build_model(int(p["width"])).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=float(p["lr"]))
    metrics = common.Metrics()
    config = {k: v for k, v in p.items() if isinstance(v, (str, int, float, bool))}

    with common.WandbRun(p, project="crashmatrix-train", config=config) as wb:
        batches = metrics.batches(loader)
        _train(p, model, optimizer, precision, batches, to_device, metrics, wb)
        val_loss, images_logged, image_mode = _validate(p, model, precision, batches, to_device, wb)
        del batches  # shuts the workers down (unless persistent)

    return metrics.result(
        device=str(device),
        precision=precision.label,
        val_loss=None if val_loss is None else round(val_loss, 6),
        pin_memory_effective=common.pin_memory_effective(p),
        num_workers=kwargs["num_workers"],
        start_method=torch.multiprocessing.get_start_method(),
        sharing_strategy=torch.multiprocessing.get_sharing_strategy(),
        wandb=wb.mode,
        wandb_run_dir=wb.run_dir if wb.mode != "disabled" else None,
        wandb_images=images_logged,
        wandb_image_mode=image_mode,
        data=str(p["data"]),
    )


def _train(p: dict, model, optimizer, precision, batches, to_device, metrics, wb) -> None:
    """The training steps, each batch checked first if asked."""
    steps, inject_nan_at = int(p["steps"]), int(p["inject_nan_at"])
    check = knobs.as_bool(p["check_batches"])
    model.train()
    for step in range(steps):
        batch = next(batches)
        if check:
            common.check_batch(step, batch, ranges={"image": (0.0, 1.0), "prob": (0.0, 1.0)})
        value, parts = dbnet.train_step(
            model, optimizer, precision, to_device(batch), step, metrics, make_nan=step == inject_nan_at
        )
        wb.log({"train/loss": value, **{f"train/{k}": float(v.detach()) for k, v in parts.items()}}, step=step)


def _validate(p: dict, model, precision, batches, to_device, wb) -> tuple:
    """The validation steps with per-batch image logging, as the reported runs did:
    (last val loss, images logged, image mode)."""
    import torch

    steps, val_steps = int(p["steps"]), int(p["val_steps"])
    model.eval()
    images_logged, image_mode, val_loss = 0, "none", None
    with torch.no_grad():
        for vstep in range(val_steps):
            batch = to_device(next(batches))
            loss, _, out = dbnet.forward_loss(model, precision, batch)
            val_loss = common.check_loss(loss, vstep, name="val loss")
            if wb.active:
                image_mode = _log_val_images(wb, batch, out, steps + vstep, val_loss)
                images_logged += 2 if image_mode == "image" else 0
    return val_loss, images_logged, image_mode


def _log_val_images(wb, batch, out, step: int, val_loss: float) -> str:
    """wandb.Image of the input and the predicted map; histograms when PIL is missing.

    wandb.Image needs Pillow; without it (as in this project's CPU venv) it
    raises "wandb.Image needs the PIL package", so the probe logs the same
    arrays as wandb.Histogram and reports image_mode="histogram".
    """
    import wandb

    image = _image_for_wandb(batch["image"][0])
    pred = _image_for_wandb(out["binary"][0].expand(3, -1, -1))
    try:
        import PIL  # noqa: F401
    except ImportError:
        wb.log(
            {
                "val/loss": val_loss,
                "val/input_hist": wandb.Histogram(image.reshape(-1)),
                "val/pred_hist": wandb.Histogram(pred.reshape(-1)),
            },
            step=step,
        )
        return "histogram"
    wb.log(
        {
            "val/loss": val_loss,
            "val/input": wandb.Image(image, caption=f"input {step}"),
            "val/pred": wandb.Image(pred, caption=f"binary map {step}"),
        },
        step=step,
    )
    return "image"
