"""Write the synthetic data a config asks for under a scratch root, and build its loader."""

import csv
import os
import pickle
import sqlite3
from functools import partial

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader

from a_data import datasets, transforms
from a_data.collate import nested_collate
from a_data.prefetch import prefetch_batches
from a_data.seeding import limit_threads, seed_worker


def write_data(kind: str, root: str, cfg: dict) -> None:
    rng = np.random.default_rng(0)
    n, dim = cfg.get("samples", 64), cfg.get("dim", 32)
    if kind == "images":
        with open(os.path.join(root, "labels.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["file", "label"])
            for i in range(n):
                img = Image.fromarray(rng.integers(0, 255, (16, 16, 3), dtype=np.uint8))
                if i in cfg.get("palette_images", []):
                    img = img.convert("P")
                img.save(os.path.join(root, f"img_{i:03d}.png"))
                w.writerow([f"img_{i:03d}.png", i % 4])
    elif kind == "npy":
        for i in range(n):
            np.save(os.path.join(root, f"s_{i:03d}.npy"), rng.standard_normal(dim).astype(np.float32))
        labelled = n - cfg.get("unlabelled", 0)
        with open(os.path.join(root, "labels.csv"), "w") as f:
            f.write("file,label\n" + "".join(f"s_{i:03d}.npy,{i % 4}\n" for i in range(labelled)))
    elif kind == "captions":
        np.save(os.path.join(root, "features.npy"), rng.standard_normal((n, dim)).astype(np.float32))
        with open(os.path.join(root, "captions.csv"), "w") as f:
            f.write("id,label,caption\n")
            for i in range(n):
                caption = "a dog, running" if i == cfg.get("comma_caption", -1) else f"sample {i}"
                f.write(f"{i},{i % 4},{caption}\n")
    elif kind in ("features", "sqlite"):
        np.save(os.path.join(root, "features.npy"), rng.standard_normal((n, dim)).astype(np.float32))
        if kind == "sqlite":
            conn = sqlite3.connect(os.path.join(root, "index.db"))
            conn.execute("CREATE TABLE samples (id INTEGER PRIMARY KEY, row INTEGER, label INTEGER)")
            conn.executemany("INSERT INTO samples VALUES (?, ?, ?)", [(i, i, i % 4) for i in range(n)])
            conn.commit()
            conn.close()
    elif kind == "memmap":
        feats = np.memmap(os.path.join(root, "features.f32"), dtype=np.float64, mode="w+", shape=(n, dim))
        feats[:] = rng.standard_normal((n, dim))
        feats.flush()
    elif kind == "shards":
        for s in range(cfg.get("shards", 2)):
            np.save(os.path.join(root, f"shard_{s:02d}.npy"), rng.standard_normal((n, dim)).astype(np.float32))
    else:
        raise ValueError(f"unknown data kind {kind!r}")
    with open(os.path.join(root, "written.pkl"), "wb") as f:
        pickle.dump({"kind": kind, "n": n}, f)


def make_dataset(cfg: dict, root: str):
    kind = cfg["dataset"]
    if kind == "images":
        blur = cfg["augment"]["blur"]
        tf = transforms.Compose([transforms.RandomBlur(blur["p"], tuple(blur["radius"])), transforms.ToTensor()])
        return datasets.ImageFolderCSV(root, tf)
    if kind == "npy":
        return datasets.NpySamples(root)
    if kind == "captions":
        return datasets.Captions(root)
    if kind == "features":
        return datasets.MultiSource(root)
    if kind == "memmap":
        return datasets.MemmapFeatures(root, cfg.get("samples", 64), cfg.get("dim", 32))
    if kind == "sqlite":
        return datasets.SqliteIndex(root)
    if kind == "shards":
        return datasets.ShardStream(root, sync_workers=cfg["workers"] if cfg.get("sync_shards") else 0)
    raise ValueError(f"unknown dataset {kind!r}")


def make_loader(cfg: dict, root: str):
    write_data(cfg["dataset"], root, cfg)
    ds = make_dataset(cfg, root)
    if cfg.get("prefetch_threads"):
        return prefetch_batches(ds, cfg["batch_size"], cfg["prefetch_threads"])
    kwargs = {}
    if cfg["workers"] > 0:
        kwargs = {"persistent_workers": cfg.get("persistent_workers", False), "prefetch_factor": 2}
        if cfg.get("seed_workers"):
            kwargs["worker_init_fn"] = seed_worker
        if cfg.get("cpu_budget"):
            kwargs["worker_init_fn"] = partial(limit_threads, budget=cfg["cpu_budget"], workers=cfg["workers"])
    return DataLoader(
        ds,
        batch_size=cfg["batch_size"],
        num_workers=cfg["workers"],
        pin_memory=cfg.get("pin_memory", False),
        collate_fn=nested_collate,
        generator=torch.Generator().manual_seed(cfg.get("seed", 0)),
        **kwargs,
    )
