"""The crash reports' pipeline in miniature: OCR text detection (DBNet-style).

A small ResNet-style encoder, an FPN decoder and a DB head (probability and
threshold maps, differentiable binarisation), trained with dice + BCE + L1 on
synthetic "text line" images through a real DataLoader, then a validation pass
that logs the input and the predicted map of every batch to wandb, as the
reported runs did. Every contract axis is honoured (see common.py).

`data: files` first writes the samples to ./data-<hash>/ under the cwd (the
cell's log dir) as .npy images and .pt targets, and the Dataset reads them back
from disk in the workers, as the real pipeline read image files.
"""

from __future__ import annotations

import functools
import hashlib
import os
import time

from probes import common

DESCRIPTION = "OCR text-detection training (ResNet+FPN+DB head) through DataLoader, AMP, wandb image logging"

PARAMS: dict = {
    **common.COMMON_DEFAULTS,
    "steps": 20,
    "batch_size": 8,
    "image_size": 64,
    "width": 16,             # channels of the first encoder stage
    "lr": 1e-3,
    "val_steps": 2,
    "data": "synthetic",     # synthetic | files
    "samples": 64,           # dataset length (the loader cycles through it)
    "seed": 0,
    "inject_nan_at": -1,     # step at which the loss is forced to NaN (tests)
    "check_batches": True,   # NaN/Inf/range check of every batch
}


# ---------------------------------------------------------------------- synthetic data


def make_sample(index: int, size: int, seed: int = 0):
    """Deterministic (image, prob_mask, thresh_map, thresh_mask) for one index.

    A noisy background with a few bright horizontal bars ("text lines"); the
    probability target is each bar shrunk, the threshold target a border band
    around it, as DBNet's label generation makes them.
    """
    import torch

    g = torch.Generator().manual_seed(seed * 1_000_003 + index)
    image = 0.15 * torch.rand(3, size, size, generator=g)
    prob = torch.zeros(size, size)
    thresh = torch.full((size, size), 0.3)
    thresh_mask = torch.zeros(size, size)
    for _ in range(int(torch.randint(1, 4, (1,), generator=g))):
        h = int(torch.randint(max(3, size // 16), max(4, size // 6), (1,), generator=g))
        w = int(torch.randint(size // 4, size // 2 + 1, (1,), generator=g))
        y = int(torch.randint(0, size - h, (1,), generator=g))
        x = int(torch.randint(0, size - w, (1,), generator=g))
        color = 0.6 + 0.4 * torch.rand(3, 1, 1, generator=g)
        image[:, y : y + h, x : x + w] = color
        s = max(1, h // 4)  # shrink / dilate offset
        prob[y + s : y + h - s, x + s : x + w - s] = 1.0
        y0, y1, x0, x1 = max(0, y - s), min(size, y + h + s), max(0, x - s), min(size, x + w + s)
        thresh_mask[y0:y1, x0:x1] = 1.0
        thresh[y0:y1, x0:x1] = 0.7
        thresh[y + s : y + h - s, x + s : x + w - s] = 0.3
    return image, prob, thresh, thresh_mask


class SyntheticText:
    """Map-style dataset generated on the fly (plain class: picklable under spawn)."""

    def __init__(self, samples: int, size: int, seed: int):
        self.samples, self.size, self.seed = samples, size, seed

    def __len__(self) -> int:
        return self.samples

    def __getitem__(self, index: int):
        image, prob, thresh, thresh_mask = make_sample(index, self.size, self.seed)
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
        image, prob, thresh, thresh_mask = make_sample(i, size, seed)
        np.save(os.path.join(folder, f"image_{i:05d}.npy"), image.numpy())
        torch.save({"prob": prob, "thresh": thresh, "thresh_mask": thresh_mask},
                   os.path.join(folder, f"target_{i:05d}.pt"))
    open(done, "w").close()
    return folder


# ---------------------------------------------------------------------------- model


@functools.lru_cache(maxsize=None)
def _model_class():
    import torch
    from torch import nn
    import torch.nn.functional as F

    class BasicBlock(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.down = None
            if stride != 1 or cin != cout:
                self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

        def forward(self, x):
            out = F.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            return F.relu(out + (x if self.down is None else self.down(x)))

    class DBNet(nn.Module):
        """ResNet-ish encoder (1/4..1/32), FPN, DB head; outputs at input resolution."""

        def __init__(self, width: int = 16, k: float = 50.0):
            super().__init__()
            w = width
            chans = [w, 2 * w, 4 * w, 8 * w]
            self.stem = nn.Sequential(nn.Conv2d(3, w, 3, 2, 1, bias=False), nn.BatchNorm2d(w), nn.ReLU(inplace=True))
            self.stages = nn.ModuleList()
            cin = w
            for i, c in enumerate(chans):
                self.stages.append(nn.Sequential(BasicBlock(cin, c, 2), BasicBlock(c, c, 1)))
                cin = c
            inner = 2 * w
            self.lateral = nn.ModuleList(nn.Conv2d(c, inner, 1) for c in chans)
            self.smooth = nn.ModuleList(nn.Conv2d(inner, inner // 4, 3, 1, 1) for _ in chans)
            fused = (inner // 4) * len(chans)

            def branch():
                return nn.Sequential(
                    nn.Conv2d(fused, fused // 2, 3, 1, 1, bias=False), nn.BatchNorm2d(fused // 2), nn.ReLU(inplace=True),
                    nn.ConvTranspose2d(fused // 2, fused // 2, 2, 2), nn.BatchNorm2d(fused // 2), nn.ReLU(inplace=True),
                    nn.ConvTranspose2d(fused // 2, 1, 2, 2),
                )

            self.prob_head = branch()
            self.thresh_head = branch()
            self.k = k

        def forward(self, x):
            feats = []
            h = self.stem(x)
            for stage in self.stages:
                h = stage(h)
                feats.append(h)
            # top-down pathway
            lat = [l(f) for l, f in zip(self.lateral, feats)]
            for i in range(len(lat) - 2, -1, -1):
                lat[i] = lat[i] + F.interpolate(lat[i + 1], size=lat[i].shape[-2:], mode="nearest")
            size = lat[0].shape[-2:]
            outs = [F.interpolate(s(l), size=size, mode="nearest") for s, l in zip(self.smooth, lat)]
            fused = torch.cat(outs, dim=1)
            # stage 1 is at 1/4 of the input; the two transposed convs bring it back to 1/1
            prob_logits = self.prob_head(fused)
            thresh = torch.sigmoid(self.thresh_head(fused))
            binary = torch.sigmoid(self.k * (torch.sigmoid(prob_logits) - thresh))
            return {"prob_logits": prob_logits, "thresh": thresh, "binary": binary}

    return DBNet


def build_model(width: int = 16):
    return _model_class()(width=width)


def db_loss(out: dict, batch: dict):
    """DBNet's loss: BCE on the probability map + dice on the binary map + L1 on the threshold map."""
    import torch
    import torch.nn.functional as F

    prob_logits = out["prob_logits"].float().squeeze(1)
    binary = out["binary"].float().squeeze(1)
    thresh = out["thresh"].float().squeeze(1)
    gt, gt_thresh, thresh_mask = batch["prob"], batch["thresh"], batch["thresh_mask"]
    bce = F.binary_cross_entropy_with_logits(prob_logits, gt)
    inter = (binary * gt).sum()
    dice = 1 - (2 * inter + 1e-6) / (binary.sum() + gt.sum() + 1e-6)
    l1 = (torch.abs(thresh - gt_thresh) * thresh_mask).sum() / (thresh_mask.sum() + 1e-6)
    return bce + dice + 10 * l1, {"bce": bce, "dice": dice, "l1": l1}


def synthetic_batch(batch_size: int, size: int, seed: int, offset: int = 0) -> dict:
    """A collated batch without DataLoader (model.py, ddp.py)."""
    import torch

    samples = [make_sample(offset + i, size, seed) for i in range(batch_size)]
    return {
        "image": torch.stack([s[0] for s in samples]),
        "prob": torch.stack([s[1] for s in samples]),
        "thresh": torch.stack([s[2] for s in samples]),
        "thresh_mask": torch.stack([s[3] for s in samples]),
    }


# ----------------------------------------------------------------------------- main


def _to(batch: dict, device, non_blocking: bool) -> dict:
    return {k: v.to(device, non_blocking=non_blocking) for k, v in batch.items()}


def _cycle(loader):
    while True:
        for batch in loader:
            yield batch


def _image_for_wandb(t):
    """CHW float tensor in [0,1] -> HWC uint8 numpy."""
    return (t.detach().float().clamp(0, 1) * 255).byte().permute(1, 2, 0).cpu().numpy()


def main(params: dict) -> dict:
    import torch
    from torch.utils.data import DataLoader

    from runner import knobs

    p = common.with_defaults(params, PARAMS)
    device = common.device_for(p)
    precision = common.Precision(p["precision"], device)
    steps, val_steps = int(p["steps"]), int(p["val_steps"])
    size, samples, seed = int(p["image_size"]), int(p["samples"]), int(p["seed"])
    inject_nan_at = int(p["inject_nan_at"])
    check = knobs.as_bool(p["check_batches"])
    torch.manual_seed(seed)

    data_mode = str(p["data"])
    if data_mode == "synthetic":
        dataset = SyntheticText(samples, size, seed)
    elif data_mode == "files":
        dataset = FileText(write_files(samples, size, seed), samples)
    else:
        raise ValueError(f"data must be synthetic or files; got {data_mode!r}")

    kwargs = common.loader_kwargs(p)
    loader = DataLoader(dataset, shuffle=True, drop_last=True,
                        generator=torch.Generator().manual_seed(seed), **kwargs)
    non_blocking = kwargs["pin_memory"] and device.type == "cuda"

    model = build_model(int(p["width"])).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=float(p["lr"]))
    metrics = common.Metrics()
    config = {k: v for k, v in p.items() if isinstance(v, (str, int, float, bool))}

    with common.WandbRun(p, project="crashmatrix-train", config=config) as wb:
        model.train()
        batches = _cycle(loader)
        first_batch_s = None
        for step in range(steps):
            batch = next(batches)
            if first_batch_s is None:
                first_batch_s = round(time.perf_counter() - metrics.t0, 3)
            if check:
                common.check_batch(step, batch, ranges={"image": (0.0, 1.0), "prob": (0.0, 1.0)})
            batch = _to(batch, device, non_blocking)
            optimizer.zero_grad(set_to_none=True)
            with precision.autocast():
                out = model(batch["image"])
                loss, parts = db_loss(out, batch)
            if step == inject_nan_at:
                loss = loss * float("nan")
            value = common.check_loss(loss, step)
            precision.backward_step(loss, optimizer)
            metrics.step(value)
            wb.log({"train/loss": value, **{f"train/{k}": float(v.detach()) for k, v in parts.items()}}, step=step)

        # validation: per-batch image logging, as the reported runs did
        model.eval()
        images_logged, image_mode = 0, "none"
        val_loss = None
        with torch.no_grad():
            for vstep in range(val_steps):
                batch = _to(next(batches), device, non_blocking)
                with precision.autocast():
                    out = model(batch["image"])
                    loss, _ = db_loss(out, batch)
                val_loss = common.check_loss(loss, vstep, name="val loss")
                if wb.active:
                    image_mode = _log_val_images(wb, batch, out, steps + vstep, val_loss)
                    images_logged += 2 if image_mode == "image" else 0
        del batches  # shuts the workers down (unless persistent)

    return metrics.result(
        device=str(device),
        precision=precision.label,
        val_loss=None if val_loss is None else round(val_loss, 6),
        first_batch_s=first_batch_s,
        pin_memory_effective=common.pin_memory_effective(p),
        num_workers=kwargs["num_workers"],
        start_method=torch.multiprocessing.get_start_method(),
        sharing_strategy=torch.multiprocessing.get_sharing_strategy(),
        wandb=wb.mode,
        wandb_run_dir=wb.run_dir if wb.mode != "disabled" else None,
        wandb_images=images_logged,
        wandb_image_mode=image_mode,
        data=data_mode,
    )


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
        wb.log({"val/loss": val_loss,
                "val/input_hist": wandb.Histogram(image.reshape(-1)),
                "val/pred_hist": wandb.Histogram(pred.reshape(-1))}, step=step)
        return "histogram"
    wb.log({"val/loss": val_loss,
            "val/input": wandb.Image(image, caption=f"input {step}"),
            "val/pred": wandb.Image(pred, caption=f"binary map {step}")}, step=step)
    return "image"
