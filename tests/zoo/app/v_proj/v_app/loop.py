"""Training with Lightning Fabric: launch, setup, backward, clip, all_reduce, save and load."""

import os
import tempfile

import torch
from lightning_fabric import Fabric
from omegaconf import DictConfig

from v_app.data import make_data
from v_app.evaluate import evaluate, sweep
from v_app.model import build_model


def train_epoch(fabric: Fabric, model, optimizer, loader, train: DictConfig) -> torch.Tensor:
    total = torch.zeros(())
    for x, y in loader:
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        fabric.backward(loss)
        if train.clip:
            fabric.clip_gradients(model, optimizer, max_norm=train.clip.get("max_norm"))
        optimizer.step()
        total += loss.detach()
    return fabric.all_reduce(total, reduce_op="mean")


def save_checkpoint(fabric: Fabric, path: str, model, optimizer, epoch: int) -> None:
    fabric.save(path, {"model": model, "optimizer": optimizer, "epoch": epoch})


def resume(fabric: Fabric, path: str, model, optimizer, scheduler) -> int:
    state = {"model": model, "optimizer": optimizer, "epoch": 0}
    if scheduler is not None:
        state["scheduler"] = scheduler
    fabric.load(path, state)
    return state["epoch"]


def fit(cfg: DictConfig) -> None:
    torch.set_num_threads(1)
    fabric = Fabric(accelerator=cfg.fabric.accelerator, devices=cfg.fabric.devices, precision=cfg.fabric.precision)
    fabric.launch()
    fabric.seed_everything(cfg.seed)
    model = build_model(cfg.data, cfg.train.hidden)
    loader = fabric.setup_dataloaders(make_data(cfg.data))
    run_dir = cfg.run_dir or tempfile.mkdtemp(prefix="v_proj-")
    for fold in range(cfg.train.folds):
        optimizer = torch.optim.SGD(model.parameters(), lr=cfg.train.lr, momentum=cfg.train.momentum)
        model, optimizer = fabric.setup(model, optimizer)
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1) if cfg.train.scheduler else None
        for epoch in range(cfg.train.epochs):
            loss = train_epoch(fabric, model, optimizer, loader, cfg.train)
            if scheduler is not None:
                scheduler.step()
            fabric.print(f"fold {fold} epoch {epoch} loss {loss.item():.4f}")
        path = os.path.join(run_dir, f"fold{fold}.ckpt")
        save_checkpoint(fabric, path, model, optimizer, epoch)
        if cfg.train.resume_check:
            fabric.print(f"resumed at epoch {resume(fabric, path, model, optimizer, scheduler)}")
    if cfg.train.eval_batch_size:
        evaluate(fabric, model, cfg.train.eval_batch_size)
    if cfg.train.sweep:
        sweep(fabric, model, list(cfg.train.sweep))
