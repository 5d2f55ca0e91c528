"""A Hydra app starts its 2 gloo ranks with mp.spawn; both ranks memory-map the shared feature cache, then rank 0
prunes the cache to the train split (rewriting the file shorter) while rank 1 still holds its mapping of the old
file. Rank 1 reads its shard's rows past the new end of file and dies by SIGBUS; mp.spawn reports it.
"""

import faulthandler
import os
import socket
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Any

import hydra
import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from hydra.core.config_store import ConfigStore
from omegaconf import DictConfig, OmegaConf


@dataclass
class CacheConf:
    rows: int = 4096
    dim: int = 64
    train_rows: int = 2048
    prune: bool = True


@dataclass
class AppConf:
    cache: CacheConf = field(default_factory=CacheConf)
    world_size: int = 2
    hydra: Any = field(default_factory=lambda: {"run": {"dir": "${oc.env:TMPDIR,/tmp}/hr_sb/${now:%H-%M-%S-%f}"}})


class FeatureCache:
    def __init__(self, path: str, rows: int, dim: int) -> None:
        self.feats = np.memmap(path, dtype=np.float32, mode="c", shape=(rows, dim))

    def shard_mean(self, lo: int, hi: int) -> torch.Tensor:
        return torch.from_numpy(self.feats[lo:hi]).mean(0)


def prune_cache(path: str, keep: int, dim: int) -> None:
    kept = np.fromfile(path, dtype=np.float32, count=keep * dim)
    kept.tofile(path)


def rank_main(rank: int, cfg: dict, path: str, port: int) -> None:
    faulthandler.enable()
    c = cfg["cache"]
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=cfg["world_size"])
    cache = FeatureCache(path, c["rows"], c["dim"])
    dist.barrier()
    if rank == 0 and c["prune"]:
        prune_cache(path, c["train_rows"], c["dim"])
        print(f"[rank0] cache pruned to {c['train_rows']} train rows", flush=True)
    dist.barrier()
    per_rank = c["rows"] // cfg["world_size"]
    mean = cache.shard_mean(rank * per_rank, (rank + 1) * per_rank)
    dist.all_reduce(mean)
    print(f"[rank{rank}] shard mean {mean.norm():.3f}", flush=True)
    dist.destroy_process_group()


def task(cfg: DictConfig) -> None:
    path = os.path.join(tempfile.gettempdir(), f"hr_features_{os.getpid()}.f32")
    rng = np.random.default_rng(0)
    rng.standard_normal((cfg.cache.rows, cfg.cache.dim), dtype=np.float32).tofile(path)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    try:
        mp.spawn(rank_main, args=(OmegaConf.to_container(cfg), path, port), nprocs=cfg.world_size)
    finally:
        os.unlink(path)


def main() -> None:
    ConfigStore.instance().store(name="hr_sb_app", node=AppConf)
    sys.argv = [sys.argv[0]]
    hydra.main(config_path=None, config_name="hr_sb_app", version_base="1.3")(task)()
