"""A cache-export child (spawned) keeps the feature cache mapped with `torch.from_file(shared=True)` and checksums it
in a reader thread, while its writer thread rewrites the cache in place: the writer truncates the file before it
writes the new features, and the reader's next pass touches mapped pages past the new end of the file. The child
dies by SIGBUS inside torch's sum; the trainer finds its exit code and stops.
"""

import faulthandler
import multiprocessing as mp
import os
import tempfile
import threading

import torch

N = 1 << 20  # float32 features: 4 MiB


def rewrite(path: str, truncated: threading.Event) -> None:
    with open(path, "r+b") as f:
        f.truncate(0)  # start the new cache from empty
        truncated.set()


def checksum(feats: torch.Tensor, truncated: threading.Event) -> None:
    print(f"[export] checksum {float(feats.sum()):.1f}", flush=True)
    truncated.wait()
    print(f"[export] checksum {float(feats.sum()):.1f}", flush=True)


def export(path: str) -> None:
    faulthandler.enable()
    feats = torch.from_file(path, shared=True, size=N)
    truncated = threading.Event()
    reader = threading.Thread(target=checksum, args=(feats, truncated), name="checksum")
    writer = threading.Thread(target=rewrite, args=(path, truncated), name="rewrite")
    reader.start()
    writer.start()
    writer.join()
    reader.join()


def main() -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="th_cache_"), "features.bin")
    torch.ones(N).numpy().tofile(path)
    child = mp.get_context("spawn").Process(target=export, args=(path,), name="exporter")
    child.start()
    child.join()
    if child.exitcode != 0:
        raise RuntimeError(f"cache exporter exited with code {child.exitcode}; features not exported")
    print("exported", flush=True)
