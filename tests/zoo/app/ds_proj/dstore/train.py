"""The training cases: each builds its stores in a scratch folder, then trains over them."""

import os
import tempfile

import lmdb
import torch
from torch.utils.data import DataLoader

from dstore.data import LmdbRecords, PngImages
from dstore.index import build_index
from dstore.stores import build_lmdb, copy_store, write_pngs


def scratch(name: str) -> str:
    return tempfile.mkdtemp(prefix=f"ds_{name}_")


def fit(loader: DataLoader, in_features: int, on_step=None) -> None:
    model = torch.nn.Linear(in_features, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x.flatten(1)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if on_step is not None:
            on_step(step, loss.item())
    print(f"epoch done, loss {loss.item():.3f}", flush=True)


def lmdb_cut_short() -> None:
    """The validation store was synced from the training store by a job whose quota ended mid-file."""
    root = scratch("cut")
    build_lmdb(os.path.join(root, "train"), 600)
    copy_store(os.path.join(root, "train"), os.path.join(root, "val"), limit=1 << 20)
    print("validation store synced", flush=True)
    val = LmdbRecords(os.path.join(root, "val"), 600, readonly=True)
    fit(DataLoader(val, batch_size=32, num_workers=0), 64)


def lmdb_readers_full() -> None:
    """Each worker keeps one read transaction; the local copy's lock table was sized for 2 workers, now 3."""
    root = scratch("readers")
    build_lmdb(os.path.join(root, "shared"), 96)
    copy_store(os.path.join(root, "shared"), os.path.join(root, "local"))
    ds = LmdbRecords(os.path.join(root, "local"), 96, max_readers=2, hold_txn=True)
    loader = DataLoader(ds, batch_size=4, num_workers=3, multiprocessing_context="fork")
    fit(loader, 64)


def pil_broken_png() -> None:
    """One exported PNG has a flipped byte in its pixel data; spawn workers decode it."""
    root = scratch("png")
    paths = write_pngs(os.path.join(root, "images"), 16, flaky=5)
    loader = DataLoader(PngImages(paths), batch_size=4, num_workers=2, multiprocessing_context="spawn")
    fit(loader, 3 * 24 * 24)


def hang_lmdb_write_lock() -> None:
    """The main keeps a write transaction open for the epoch's statistics; workers mark records seen."""
    root = scratch("lock")
    path = os.path.join(root, "store")
    build_lmdb(path, 64)
    env = lmdb.open(path, map_size=1 << 26)
    stats = env.begin(write=True)
    ds = LmdbRecords(path, 64, count_seen=True)
    loader = DataLoader(ds, batch_size=4, num_workers=2, multiprocessing_context="spawn")
    print("epoch 0: training", flush=True)
    fit(loader, 64, on_step=lambda step, loss: stats.put(f"loss-{step}".encode(), str(loss).encode()))
    stats.commit()


def lmdb_reopen_after_fork() -> None:
    """The main opens the store to count its records and keeps it open; fork workers open it again."""
    root = scratch("reopen")
    path = os.path.join(root, "store")
    build_lmdb(path, 64)
    env = lmdb.open(path, readonly=True, lock=False)
    n = env.stat()["entries"]
    print(f"{n} records", flush=True)
    loader = DataLoader(LmdbRecords(path, n), batch_size=4, num_workers=2, multiprocessing_context="fork")
    fit(loader, 64)


def hang_queue_join_child() -> None:
    """The shard index is built in a child process before training starts."""
    entries = build_index()
    print(f"training on {len(entries)} rows", flush=True)


CASES = {
    "hang_queue_join_child": hang_queue_join_child,
    "lmdb_reopen_after_fork": lmdb_reopen_after_fork,
    "lmdb_cut_short": lmdb_cut_short,
    "lmdb_readers_full": lmdb_readers_full,
    "pil_broken_png": pil_broken_png,
    "hang_lmdb_write_lock": hang_lmdb_write_lock,
}
