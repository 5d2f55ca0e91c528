"""The training runs `train.py --case NAME` starts."""

import gc
import os
import tempfile

import torch
from torch import nn

from lifetimes.cache import Entry, FeatureCache
from lifetimes.data import spilled_loader
from lifetimes.shards import DIM, MappedShard, write_shard
from lifetimes.telemetry import Telemetry


def _workdir() -> str:
    return tempfile.mkdtemp(prefix="gc_proj-")


def view_outlives_mapping() -> None:
    path = os.path.join(_workdir(), "train.f32")
    write_shard(path, rows=262144)
    with MappedShard(path) as shard:
        feats = shard.features()
    print(f"mapped {feats.shape[0]} rows", flush=True)
    mean = feats.mean(dim=0)
    std = feats.std(dim=0)
    print(f"normalising with mean {mean.mean():.3f} std {std.mean():.3f}")


def worker_spill_truncated() -> None:
    loader = spilled_loader(_workdir())
    model = nn.Linear(DIM, 4)
    for step, batch in enumerate(loader):
        loss = model(batch).pow(2).mean()
        loss.backward()
        print(f"step {step} loss {loss.item():.4f}", flush=True)


def weak_cache_evicted() -> None:
    cache = FeatureCache()
    keys = [f"shard-{i:05d}" for i in range(8)]
    prefetched = [Entry(k, torch.randn(256, DIM)) for k in keys]
    for entry in prefetched:
        cache.put(entry)
    plan = [k for k in keys if k in cache]
    print(f"epoch plan: {len(plan)} cached shards", flush=True)
    del prefetched
    gc.collect()
    model = nn.Linear(DIM, 4)
    for key in plan:
        feats = cache.get(key)
        print(f"{key}: loss {model(feats).pow(2).mean().item():.4f}")


def gc_telemetry_deadlock() -> None:
    telemetry = Telemetry(run="eval", host="local")
    model = nn.Linear(DIM, 4).eval()
    with torch.no_grad():
        for step in range(200000):
            x = torch.randn(8, DIM)
            loss = model(x).pow(2).mean()
            telemetry.log("eval_step", step=step, loss=loss.item())
            if step % 100 == 0:
                print(f"eval step {step} loss {loss.item():.4f}", flush=True)
            if step % 250 == 249:
                telemetry.memory_snapshot(step)
    print("done")


CASES = {
    "view_outlives_mapping": view_outlives_mapping,
    "worker_spill_truncated": worker_spill_truncated,
    "weak_cache_evicted": weak_cache_evicted,
    "gc_telemetry_deadlock": gc_telemetry_deadlock,
}
