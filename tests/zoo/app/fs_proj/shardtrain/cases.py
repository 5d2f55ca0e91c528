"""The cases: each starts 2 gloo ranks (mp.spawn) and trains."""

import os
import tempfile

import torch

from shardtrain import ckpt, ranks
from shardtrain.launch import spawn
from shardtrain.model import mlp


def resume_mapped_shard() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="fs_resume_"), "last.flat")
    ckpt.write_flat(mlp(ranks.WIDTH), path)
    spawn(ranks.ddp_rank, {"resume": path})


def worker_isa_kernel() -> None:
    # the per-rank node types, copied from the cluster's config: rank 1 was listed as an AVX-512 node
    spawn(ranks.ddp_rank, {"isa": ["generic", "avx512"]})


def hooks_from_config() -> None:
    spawn(ranks.ddp_rank, {"compress": "fp16", "log_grad_norm": True})


def fsdp_full_checkpoint() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="fs_pre_"), "pretrained.pt")
    torch.save(mlp(ranks.WIDTH).state_dict(), path)
    spawn(ranks.fsdp_rank, {"pretrained": path})


def clean() -> None:
    spawn(ranks.ddp_rank, {})


CASES = {
    "resume_mapped_shard": resume_mapped_shard,
    "worker_isa_kernel": worker_isa_kernel,
    "hooks_from_config": hooks_from_config,
    "fsdp_full_checkpoint": fsdp_full_checkpoint,
    "clean": clean,
}
