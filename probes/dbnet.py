"""The DBNet-style text detector the train, model and ddp probes train: data, model, loss, one step.

A small ResNet-style encoder, an FPN decoder and a DB head (probability and
threshold maps, differentiable binarisation), trained with dice + BCE + L1 on
synthetic "text line" images. A helper module, not a probe (probes._NOT_PROBES);
torch is imported inside the functions, as everywhere in probes/.
"""

from __future__ import annotations

import functools

from crashmatrix.probes import common

# The model's parameters with their defaults, shared by the probes that train it.
MODEL_PARAMS: dict = {
    "image_size": 64,
    "width": 16,  # channels of the first encoder stage
    "lr": 1e-3,
    "seed": 0,
    "inject_nan_at": -1,  # step at which the loss is forced to NaN (tests)
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


# ---------------------------------------------------------------------------- model


@functools.cache
def _basic_block_class():
    import torch.nn.functional as F
    from torch import nn

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

    return BasicBlock


def _head(fused: int):
    """One DB head branch: from the fused FPN features at 1/4 of the input back to one map at 1/1."""
    from torch import nn

    return nn.Sequential(
        nn.Conv2d(fused, fused // 2, 3, 1, 1, bias=False),
        nn.BatchNorm2d(fused // 2),
        nn.ReLU(inplace=True),
        nn.ConvTranspose2d(fused // 2, fused // 2, 2, 2),
        nn.BatchNorm2d(fused // 2),
        nn.ReLU(inplace=True),
        nn.ConvTranspose2d(fused // 2, 1, 2, 2),
    )


@functools.cache
def _model_class():
    import torch
    import torch.nn.functional as F
    from torch import nn

    BasicBlock = _basic_block_class()

    class DBNet(nn.Module):
        """ResNet-ish encoder (1/4..1/32), FPN, DB head; outputs at input resolution."""

        def __init__(self, width: int = 16, k: float = 50.0):
            super().__init__()
            w = width
            chans = [w, 2 * w, 4 * w, 8 * w]
            self.stem = nn.Sequential(nn.Conv2d(3, w, 3, 2, 1, bias=False), nn.BatchNorm2d(w), nn.ReLU(inplace=True))
            self.stages = nn.ModuleList()
            cin = w
            for _i, c in enumerate(chans):
                self.stages.append(nn.Sequential(BasicBlock(cin, c, 2), BasicBlock(c, c, 1)))
                cin = c
            inner = 2 * w
            self.lateral = nn.ModuleList(nn.Conv2d(c, inner, 1) for c in chans)
            self.smooth = nn.ModuleList(nn.Conv2d(inner, inner // 4, 3, 1, 1) for _ in chans)
            fused = (inner // 4) * len(chans)
            self.prob_head = _head(fused)
            self.thresh_head = _head(fused)
            self.k = k

        def forward(self, x):
            feats = []
            h = self.stem(x)
            for stage in self.stages:
                h = stage(h)
                feats.append(h)
            # top-down pathway
            lat = [lateral(f) for lateral, f in zip(self.lateral, feats)]
            for i in range(len(lat) - 2, -1, -1):
                lat[i] = lat[i] + F.interpolate(lat[i + 1], size=lat[i].shape[-2:], mode="nearest")
            size = lat[0].shape[-2:]
            outs = [F.interpolate(smooth(level), size=size, mode="nearest") for smooth, level in zip(self.smooth, lat)]
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


# ------------------------------------------------------------------------ one step


def forward_loss(model, precision, batch: dict):
    """(loss, its parts, the model's output) for one batch, under the cell's autocast."""
    with precision.autocast():
        out = model(batch["image"])
        loss, parts = db_loss(out, batch)
    return loss, parts, out


def train_step(
    model, optimizer, precision, batch: dict, step: int, metrics, *, make_nan: bool = False, name: str = "loss"
):
    """One optimizer step: forward, DBNet's loss (NaN when make_nan, for the tests), a finite check
    that names the step, backward through the GradScaler if any. Returns (loss value, loss parts)."""
    optimizer.zero_grad(set_to_none=True)
    loss, parts, _ = forward_loss(model, precision, batch)
    if make_nan:
        loss = loss * float("nan")
    value = common.check_loss(loss, step, name=name)
    precision.backward_step(loss, optimizer)
    metrics.step(value)
    return value, parts
