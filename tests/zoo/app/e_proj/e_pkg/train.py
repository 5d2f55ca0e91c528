"""The training loop: fit, then the stages the config lists (fine-tuning from the best checkpoint)."""

import numpy as np
import torch
import torch.nn.functional as F

from e_pkg import checkpoint
from e_pkg.ema import EMA
from e_pkg.native import weighted_histogram


def class_weights(cfg: dict, labels: np.ndarray) -> torch.Tensor:
    weights = cfg["train"].get("sample_weights")
    counts = weighted_histogram(labels, cfg["data"]["num_classes"], weights)
    return torch.from_numpy(counts.sum() / (len(counts) * counts))


def run_epochs(cfg, model, optimizer, loader, epochs, start=0, ema=None, weight=None) -> float:
    loss = torch.tensor(0.0)
    for epoch in range(start, start + epochs):
        for x, y in loader:
            loss = F.cross_entropy(model(x), y, weight=weight)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if ema is not None:
                ema.update(model)
        print(f"epoch {epoch}: loss {loss.item():.4f}", flush=True)
    return loss.item()


def fit(cfg: dict, model, loader, run_dir: str) -> None:
    tcfg = cfg["train"]
    optimizer = torch.optim.SGD(model.parameters(), lr=tcfg["lr"], momentum=0.9)
    ema = EMA(model, tcfg["ema_decay"], tcfg["ema_dtype"]) if tcfg["ema_decay"] > 0 else None
    weight = class_weights(cfg, loader.dataset.labels) if tcfg.get("balance") else None
    run_epochs(cfg, model, optimizer, loader, tcfg["epochs"], ema=ema, weight=weight)
    checkpoint.save_best(checkpoint.best_path(run_dir), model, optimizer, tcfg["epochs"] - 1)
    print(f"saved {checkpoint.best_path(run_dir)}", flush=True)


def finetune(cfg: dict, model, loader, run_dir: str) -> None:
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["train"]["lr"] / 10, momentum=0.9)
    start = checkpoint.resume(checkpoint.best_path(run_dir), model, optimizer)
    run_epochs(cfg, model, optimizer, loader, 1, start=start)


STAGES = {"fit": fit, "finetune": finetune}
