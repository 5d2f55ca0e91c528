"""A single-process launcher that hosts a TCPStore for its workers' rendezvous, then waits for the address a
worker should publish under "worker/0/addr"; the worker it meant to start is never started (its start is
behind a flag left off), so store.get() waits for a key nobody sets (its timeout set to an hour)."""

import datetime
import socket

import torch.distributed as dist


def main() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    store = dist.TCPStore("127.0.0.1", port, 2, True, timeout=datetime.timedelta(hours=1), wait_for_workers=False)
    start_workers = False
    if start_workers:
        print("starting workers")
    addr = store.get("worker/0/addr")
    print(addr)
