"""The cases `train.py --case NAME` runs."""

import json

import numpy as np
import torch
from torch.utils.data import DataLoader

from jqpipe.audio import Clips
from jqpipe.shards import ShardStream
from jqpipe.tables import TableParts
from jqpipe.text import Tagger, Utterances, collate_capped
from jqpipe.workdir import workdir


def pack_capped_lengths() -> None:
    model = Tagger()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(Utterances(), batch_size=8, num_workers=2, collate_fn=collate_capped)
    for step, (tokens, lengths) in enumerate(loader):
        logits = model(tokens, lengths)
        loss = logits.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)


def shard_quota_zero() -> None:
    wd = workdir()
    shards = []
    for k in range(2):
        path = wd / f"part-{k:05d}.csv"
        with open(path, "w") as f:
            for i in range(200):
                f.write(f"{k},{i},{i * 0.01:.2f}\n")
        shards.append(str(path))
    loader = DataLoader(ShardStream(shards), batch_size=16, num_workers=4, multiprocessing_context="spawn")
    for step, x in enumerate(loader):
        print(f"step {step} batch {tuple(x.shape)}", flush=True)


def csv_dtype_worker() -> None:
    wd = workdir()
    parts = []
    for k in range(4):
        path = wd / f"features-{k}.csv"
        with open(path, "w") as f:
            f.write("id,label,f0,f1,f2\n")
            for i in range(32):
                label = "" if (k, i) == (2, 17) else str(i % 3)  # one row exported before it was labelled
                f.write(f"{k * 32 + i},{label},{i * 0.1:.3f},{i * 0.2:.3f},{i * 0.3:.3f}\n")
        parts.append(str(path))
    model = torch.nn.Linear(3, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(TableParts(parts, 32), batch_size=16, num_workers=2, multiprocessing_context="fork")
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)


def windows_strided_worker() -> None:
    wd = workdir()
    manifest = wd / "clips.jsonl"
    with open(manifest, "w") as f:
        for k in range(6):
            sr_stored, duration = 16000, 30.0
            path = wd / f"clip{k}.npy"
            np.save(path, np.random.default_rng(k).standard_normal(int(sr_stored * duration)).astype(np.float32))
            # clip 4's entry came from another export tool, which gives durations in milliseconds
            dur = duration * 1000 if k == 4 else duration
            f.write(json.dumps({"path": str(path), "sample_rate": sr_stored, "duration_s": dur}) + "\n")
    loader = DataLoader(Clips(str(manifest)), batch_size=2, num_workers=2, multiprocessing_context="fork")
    for step, x in enumerate(loader):
        print(f"step {step} frames mean {x.mean().item():.4f}", flush=True)


CASES = {
    "pack_capped_lengths": pack_capped_lengths,
    "shard_quota_zero": shard_quota_zero,
    "csv_dtype_worker": csv_dtype_worker,
    "windows_strided_worker": windows_strided_worker,
}
