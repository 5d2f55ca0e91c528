"""Two helpers share a TCPStore key: the saver sets "ckpt/last" to a file name, the uploader counts on it with add().

The main process hosts the store and records its last checkpoint's name; the uploader, a child process of its own,
counts finished uploads with store.add("ckpt/last", 1) and the store refuses to add to a value that is not a number.
The main then finds the uploader gone.
"""

import datetime
import multiprocessing
import socket

import torch.distributed as dist

TIMEOUT = datetime.timedelta(seconds=20)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def uploader(port: int) -> None:
    store = dist.TCPStore("127.0.0.1", port, 2, False, timeout=TIMEOUT)
    store.wait(["ckpt/last"])
    name = store.get("ckpt/last").decode()
    print(f"[uploader] uploading {name}", flush=True)
    done = store.add("ckpt/last", 1)
    print(f"[uploader] {done} uploads", flush=True)


def main() -> None:
    port = free_port()
    store = dist.TCPStore("127.0.0.1", port, 2, True, timeout=TIMEOUT, wait_for_workers=False)
    child = multiprocessing.get_context("spawn").Process(target=uploader, args=(port,), name="uploader")
    child.start()
    store.set("ckpt/last", "epoch-0003.pt")
    child.join()
    if child.exitcode != 0:
        raise RuntimeError(f"uploader exited with code {child.exitcode}")
