"""Feature producers in child processes: one hands its features over in POSIX shared memory, one writes the
metrics the trainer sends it over a pipe."""

import multiprocessing as mp
from multiprocessing import shared_memory

import torch

SHM_NAME = "sharekit_features"


def produce_features(n: int, dim: int, done) -> None:
    """Compute features into a named shared-memory block and tell the parent it is ready."""
    shm = shared_memory.SharedMemory(name=SHM_NAME, create=True, size=n * dim * 4)
    try:
        feats = torch.frombuffer(shm.buf, dtype=torch.float32).view(n, dim)
        feats.copy_(torch.randn(n, dim, generator=torch.Generator().manual_seed(0)))
        del feats
        done.send((n, dim))
    finally:
        shm.close()
        shm.unlink()


def features_from_child(n: int, dim: int) -> torch.Tensor:
    ours, theirs = mp.Pipe()
    child = mp.get_context("fork").Process(target=produce_features, args=(n, dim, theirs))
    child.start()
    n, dim = ours.recv()
    child.join()
    print(f"feature child done (exit {child.exitcode})", flush=True)
    shm = shared_memory.SharedMemory(name=SHM_NAME)
    feats = torch.frombuffer(shm.buf, dtype=torch.float32).view(n, dim).clone()
    shm.close()
    return feats


def metrics_writer(conn, path: str, max_records: int) -> None:
    """Write what the trainer sends, one line each; stop after max_records (the log's size cap)."""
    with open(path, "w") as f:
        for _ in range(max_records):
            step, loss = conn.recv()
            f.write(f"{step}\t{loss:.4f}\n")
    conn.close()


def start_writer(path: str, max_records: int):
    ours, theirs = mp.Pipe()
    child = mp.get_context("fork").Process(target=metrics_writer, args=(theirs, path, max_records))
    child.start()
    theirs.close()
    return child, ours
