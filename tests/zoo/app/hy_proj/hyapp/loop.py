"""The training loop: model, data and optimizer from the config."""

import math
import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor

import torch
from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf
from torch.utils.data import DataLoader

from hyapp.data import ToySeq
from hyapp.evaluate import evaluate


def make_optimizer(cfg: DictConfig, params):
    name = cfg.optim.name.value if hasattr(cfg.optim.name, "value") else cfg.optim.name
    if name == "adam":
        return torch.optim.Adam(params, lr=cfg.optim.lr)
    return torch.optim.SGD(params, lr=cfg.optim.lr, momentum=cfg.optim.momentum)


def fit(cfg: DictConfig) -> float:
    print(f"model {cfg.model._target_} data {cfg.data.name} lr {cfg.optim.lr}", flush=True)
    model = instantiate(cfg.model)
    loader = DataLoader(ToySeq(cfg.data), batch_size=cfg.data.batch_size, num_workers=cfg.data.workers)
    opt = make_optimizer(cfg, model.parameters())
    loss_value = float("nan")
    for epoch in range(cfg.epochs):
        for step, (x, y) in enumerate(loader):
            loss = torch.nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            loss_value = loss.item()
            if not math.isfinite(loss_value):
                raise RuntimeError(f"loss is {loss_value} at epoch {epoch} step {step}")
        print(f"epoch {epoch} loss {loss_value:.4f}", flush=True)
    if cfg.eval.processes:
        weights = [p.detach().norm().item() for p in model.parameters()]
        with ProcessPoolExecutor(cfg.eval.processes, mp_context=mp.get_context("spawn")) as pool:
            print(pool.submit(evaluate, cfg, weights).result(), flush=True)
    print(OmegaConf.to_yaml(cfg.optim), flush=True)
    return loss_value
