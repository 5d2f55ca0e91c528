"""A cache-export child (spawned) keeps the feature cache mapped with `torch.from_file(shared=True)` and checksums it
(its last block) in a reader thread, while its writer thread rewrites the cache in place: the writer truncates the file before it
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


def rewrite(path: str, checked: threading.Event, truncated: threading.Event) -> None:
    checked.wait()  # the old cache's checksum is logged: rewrite it
    with open(path, "r+b") as f:
        f.truncate(0)  # start the new cache from empty
        truncated.set()


def checksum(feats: torch.Tensor, checked: threading.Event, truncated: threading.Event) -> None:
    tail = feats[-4096:]  # a quick integrity check: the last block
    print(f"[export] old cache: checksum {float(tail.sum()):.1f}", flush=True)
    checked.set()
    truncated.wait()
    print(f"[export] new cache: checksum {float(tail.sum()):.1f}", flush=True)


def export(path: str) -> None:
    faulthandler.enable()
    feats = torch.from_file(path, shared=True, size=N)
    checked, truncated = threading.Event(), threading.Event()
    reader = threading.Thread(target=checksum, args=(feats, checked, truncated), name="checksum")
    writer = threading.Thread(target=rewrite, args=(path, checked, truncated), name="rewrite")
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
