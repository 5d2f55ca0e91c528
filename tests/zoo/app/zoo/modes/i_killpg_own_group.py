"""A dashboard helper is started with subprocess.Popen (no start_new_session); at the end of training the
program stops it and everything it may have started with os.killpg(os.getpgid(helper.pid), SIGTERM). The
helper shares the trainer's process group, so the trainer sends SIGTERM to itself."""

import os
import signal
import subprocess
import sys
import time


def start_dashboard() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])


def stop_dashboard(helper: subprocess.Popen) -> None:
    os.killpg(os.getpgid(helper.pid), signal.SIGTERM)
    helper.wait()


def main() -> None:
    helper = start_dashboard()
    for epoch in range(3):
        time.sleep(0.2)
        print(f"epoch {epoch} done", flush=True)
    stop_dashboard(helper)
    print("dashboard stopped; saving the final checkpoint", flush=True)
