"""The training loop: autocast, the loss scaler, the regularizers and the epoch's bookkeeping."""

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from amp_train.data import Frames
from amp_train.model import FusedSiLU, Net
from amp_train.precision import dtype_of, make_scaler, whiten


def check_kernels() -> None:
    x = torch.randn(6, requires_grad=True)
    torch.autograd.gradcheck(FusedSiLU.apply, (x,))
    print("gradcheck passed")


def fit(cfg: dict) -> None:
    torch.manual_seed(0)
    dtype = dtype_of(cfg["precision"])
    model = Net().to(dtype)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    scaler = make_scaler(cfg["precision"])
    data = Frames(dtype=dtype, jitter=cfg["jitter"] == "true")
    loader = DataLoader(data, batch_size=int(cfg["batch"]), num_workers=int(cfg["workers"]), shuffle=True)
    if cfg["anomaly"] == "true":
        torch.autograd.set_detect_anomaly(True)
    for epoch in range(int(cfg["epochs"])):
        seen = torch.zeros((), dtype=dtype)
        frames = torch.zeros((), dtype=dtype)
        for step, (x, mask, y) in enumerate(loader):
            logits, attn, pooled = model(x, mask)
            loss = F.cross_entropy(logits.float(), y)
            if float(cfg["entropy"]) > 0:
                entropy = -(attn * attn.log()).sum(-1).mean()
                loss = loss - float(cfg["entropy"]) * entropy
            if float(cfg["whiten"]) > 0:
                white = whiten(pooled)
                loss = loss + float(cfg["whiten"]) * white.pow(2).mean().float()
            opt.zero_grad()
            if cfg["scaler"] == "true":
                loss.backward()
                scaler.step(opt)
                scaler.update()
            else:
                loss.backward()
                opt.step()
            seen += x.shape[0]
            frames += mask.sum()
            if step % 10 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
        if int(frames) != int(data.lengths.sum()):
            raise RuntimeError(f"epoch {epoch} counted {int(frames)} frames, the dataset has {int(data.lengths.sum())}")
        print(f"epoch {epoch} done: {int(seen)} samples, {int(frames)} frames", flush=True)
