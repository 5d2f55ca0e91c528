"""torchrun, 2 gloo ranks, each running the same @hydra.main task: each rank composes its own run directory from
`${now:...}`, so the ranks get two different output dirs. Rank 0 saves the warm-up checkpoint in its own; rank 1,
after the barrier, loads it from its own output dir, where it is not: FileNotFoundError on rank 1.
"""

import os
import sys
from dataclasses import dataclass, field
from typing import Any

import hydra
import torch
import torch.distributed as dist
from hydra.core.config_store import ConfigStore
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig


@dataclass
class AppConf:
    warmup_steps: int = 3
    hydra: Any = field(
        default_factory=lambda: {"run": {"dir": "${oc.env:TMPDIR,/tmp}/hr_ddp/${now:%Y-%m-%d_%H-%M-%S-%f}"}}
    )


def warm_start(model: torch.nn.Module, out_dir: str, rank: int) -> None:
    ckpt = os.path.join(out_dir, "warmup.pt")
    if rank == 0:
        torch.save(model.state_dict(), ckpt)
        print(f"[rank0] warm-up checkpoint saved to {ckpt}", flush=True)
    dist.barrier()
    if rank != 0:
        model.load_state_dict(torch.load(ckpt))


def task(cfg: DictConfig) -> None:
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 2)
    for _ in range(cfg.warmup_steps):
        model(torch.randn(8, 4)).sum().backward()
    warm_start(model, HydraConfig.get().runtime.output_dir, rank)
    t = torch.ones(2)
    dist.all_reduce(t)
    dist.destroy_process_group()


def run(rank: int, world_size: int) -> None:
    ConfigStore.instance().store(name="hr_ddp_app", node=AppConf)
    sys.argv = [sys.argv[0]]
    hydra.main(config_path=None, config_name="hr_ddp_app", version_base="1.3")(task)()
