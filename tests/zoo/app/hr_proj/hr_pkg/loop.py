"""hr_proj's training loop: everything built from the composed config."""

import logging

import torch
from hydra.core.hydra_config import HydraConfig
from hydra.types import RunMode
from hydra.utils import instantiate
from omegaconf import DictConfig
from torch.utils.data import DataLoader

log = logging.getLogger(__name__)


def run(cfg: DictConfig) -> float:
    hydra_cfg = HydraConfig.get()
    job_num = hydra_cfg.job.num if hydra_cfg.mode == RunMode.MULTIRUN else 0
    seed = cfg.seeds[job_num]
    torch.manual_seed(seed)
    dataset = instantiate(cfg.data.dataset)
    loader = DataLoader(dataset, batch_size=cfg.data.loader.batch_size, num_workers=cfg.data.loader.num_workers)
    model = instantiate(cfg.model)
    optimizer = instantiate(cfg.optim, params=model.parameters())
    steps_per_epoch = cfg.schedule.steps_per_epoch
    loss = torch.tensor(0.0)
    for epoch in range(cfg.trainer.epochs):
        for step, (x, y) in enumerate(loader):
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
            if step % cfg.trainer.log_every == 0:
                log.info("epoch %d step %d/%d loss %.4f", epoch, step, steps_per_epoch, loss.item())
    print(f"job {job_num}: seed {seed}, final loss {loss.item():.4f}", flush=True)
    return loss.item()
