"""A metrics dashboard started with Popen on the run's port (python -m http.server) and never stopped or waited
on; the evaluation step then starts the program's own result listener on the same port: the child still holds it,
`OSError: [Errno 98] Address already in use`. atexit kills the dashboard afterwards."""

import atexit
import socket
import subprocess
import sys
import tempfile
import time

import torch


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_dashboard(port: int, folder: str) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", folder]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    atexit.register(proc.kill)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return proc
        except OSError:
            time.sleep(0.05)
    return proc


def result_listener(port: int) -> socket.socket:
    srv = socket.socket()
    srv.bind(("127.0.0.1", port))
    srv.listen()
    return srv


def main() -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        start_dashboard(port, folder)
        print(f"dashboard on port {port}")
        w = torch.zeros(4, requires_grad=True)
        loss = (w - 1).pow(2).sum()
        loss.backward()
        print(f"train loss {loss.item():.3f}; evaluating")
        srv = result_listener(port)
        srv.close()
