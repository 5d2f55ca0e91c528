"""The parameter server, a child process of the program, kills itself when the trainer's heartbeats stop.

The server's watchdog thread polls the TCPStore for "hb/<step>" and SIGKILLs its own process when one does not come
within 2 s; the trainer writes its heartbeats as "heartbeat/<step>", so none ever arrives. The trainer then finds the
server dead.
"""

import datetime
import multiprocessing
import os
import signal
import socket
import time

import torch.distributed as dist

TIMEOUT = datetime.timedelta(seconds=20)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def watchdog(store: dist.TCPStore) -> None:
    step = 0
    while True:
        try:
            store.wait([f"hb/{step}"], datetime.timedelta(seconds=2))
        except dist.DistStoreError:
            print(f"[ps] watchdog: no heartbeat for step {step} in 2 s; killing the server", flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
        step += 1


def serve(port: int) -> None:
    store = dist.TCPStore("127.0.0.1", port, 2, False, timeout=TIMEOUT)
    store.set("ps/ready", "1")
    watchdog(store)


def main() -> None:
    port = free_port()
    store = dist.TCPStore("127.0.0.1", port, 2, True, timeout=TIMEOUT, wait_for_workers=False)
    server = multiprocessing.get_context("spawn").Process(target=serve, args=(port,), name="ps")
    server.start()
    store.wait(["ps/ready"])
    for step in range(20):
        store.set(f"heartbeat/{step}", str(time.time()))
        time.sleep(0.5)
        if not server.is_alive():
            raise RuntimeError(f"parameter server died at step {step} (exit code {server.exitcode})")
    server.join()
