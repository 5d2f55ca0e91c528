"""The learning-rate sweep: a Hydra app, each job a (single-process) DDP run."""

import hydra
import torch
import torch.distributed as dist
from omegaconf import DictConfig

from qerun.model import Net, train_steps


@hydra.main(version_base=None, config_path="conf", config_name="sweep")
def job(cfg: DictConfig) -> None:
    dist.init_process_group("gloo", init_method=f"file://{cfg.rendezvous}", rank=0, world_size=1)
    model = torch.nn.parallel.DistributedDataParallel(Net())
    train_steps(model, cfg.steps, f"lr={cfg.lr}")
