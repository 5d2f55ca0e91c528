"""The training loop: a progress bar on stderr (tqdm, redrawn with \r), label smoothing by one_hot, and a
note on any step's failure that says where in the run it happened."""

import logging
import sys

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader
from tqdm import tqdm

from prettytrain.config import ConfigError
from prettytrain.data import Records
from prettytrain.model import Net, pool_words

log = logging.getLogger("prettytrain.train")


def build_model(cfg: dict) -> Net:
    try:
        return Net(cfg)
    except Exception:
        log.exception("could not build the model from %s", {k: cfg[k] for k in ("hidden", "dropout", "norm_dim")})
        raise


def build_optimizer(cfg: dict, params) -> torch.optim.Optimizer:
    try:
        if cfg["optim"] == "adam":
            return torch.optim.Adam(params, lr=cfg["lr"], betas=cfg["betas"])
        return torch.optim.SGD(params, lr=cfg["lr"])
    except (TypeError, ValueError) as e:
        raise ConfigError(f"bad optimizer settings: optim={cfg['optim']} lr={cfg['lr']} betas={cfg['betas']!r}") from e


def loss_of(cfg: dict, logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if cfg["smooth"]:
        target = F.one_hot(y, num_classes=cfg["num_classes"]).float()
        target = target * (1 - cfg["smooth"]) + cfg["smooth"] / cfg["num_classes"]
        return torch.sum(-target * F.log_softmax(logits, dim=1), dim=1).mean()
    return F.cross_entropy(logits, y)


def step(cfg: dict, model: Net, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if cfg["layout"] == "sparse":
        words = x.view(len(x), 4, -1).relu().to_sparse()
        x = pool_words(words).repeat(1, 4)
    return loss_of(cfg, model(x), y)


def fit(cfg: dict) -> None:
    model = build_model(cfg)
    opt = build_optimizer(cfg, model.parameters())
    loader = DataLoader(Records(cfg), batch_size=cfg["batch"], num_workers=cfg["workers"])
    for epoch in range(cfg["epochs"]):
        bar = tqdm(loader, desc=f"epoch {epoch}", file=sys.stderr, ncols=80, mininterval=0)
        for i, (x, y) in enumerate(bar):
            try:
                loss = step(cfg, model, x, y)
            except Exception as e:
                e.add_note(f"epoch {epoch}, step {i}: batch {tuple(x.shape)}, layout {cfg['layout']}")
                raise
            opt.zero_grad()
            loss.backward()
            opt.step()
            bar.set_postfix(loss=f"{loss.item():.3f}")
        log.info("epoch %d done, loss %.3f", epoch, loss.item())
