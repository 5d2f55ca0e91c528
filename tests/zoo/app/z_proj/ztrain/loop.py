"""The training loop: stages (each its own optimizer, resuming from the last stage's checkpoint), a scheduler
stepped each epoch, bf16 autocast on CPU, accuracy from the logits."""

import os

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from ztrain.data import BucketBatchSampler, LengthSortedSampler, Sequences, make_collate
from ztrain.model import Pooler


def make_loader(cfg) -> DataLoader:
    data = Sequences()
    order = LengthSortedSampler(data)
    collate = make_collate(cfg.masks)
    if cfg.buckets:
        return DataLoader(data, batch_sampler=BucketBatchSampler(order, cfg.batch), collate_fn=collate)
    return DataLoader(data, batch_size=cfg.batch, sampler=order, collate_fn=collate)


def make_optimizer(name: str, model, lr):
    if name == "adam":
        return torch.optim.Adam(model.parameters(), lr=lr)
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)


def make_scheduler(cfg, optimizer, steps_per_epoch: int):
    if cfg.sched == "plateau":
        return torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=1)
    return torch.optim.lr_scheduler.StepLR(optimizer, step_size=max(1, steps_per_epoch), gamma=0.5)


def to_device(batch: dict, device: str) -> dict:
    return {k: v.to(device) for k, v in batch.items()}


def accuracy(logits: torch.Tensor, y: torch.Tensor) -> float:
    probs = logits.detach().softmax(-1).numpy()
    return float((probs.argmax(1) == y.numpy()).mean())


def train_epoch(cfg, model, loader, optimizer) -> float:
    total = 0.0
    for batch in loader:
        batch = to_device(batch, "cpu")
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=cfg.amp):
            logits = model(batch["x"], batch["mask"])
        loss = F.cross_entropy(logits.float(), batch["y"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        acc = accuracy(logits, batch["y"])
    print(f"  loss {total:.4f} acc {acc:.2f}", flush=True)
    return total


def run_stage(cfg, model, stage: int, name: str) -> None:
    loader = make_loader(cfg)
    optimizer = make_optimizer(name, model, cfg.lr)
    path = os.path.join(cfg.ckpt_dir, "last.pt")
    if stage > 0:
        state = torch.load(path)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
    scheduler = make_scheduler(cfg, optimizer, len(loader))
    for epoch in range(cfg.epochs):
        print(f"stage {stage} ({name}) epoch {epoch}", flush=True)
        train_epoch(cfg, model, loader, optimizer)
        scheduler.step()
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, path)


def train(cfg) -> None:
    torch.manual_seed(0)
    model = Pooler()
    for stage, name in enumerate(cfg.stages):
        run_stage(cfg, model, stage, name)
