"""A preemption handler of the program's: on SIGTERM it saves a checkpoint and exits with the shell's status for
the signal, `sys.exit(128 + signum)`. A scheduler stand-in (a shell child) sends SIGTERM after a second."""

import os
import signal
import subprocess
import sys
import time

import torch

model = torch.nn.Linear(4, 1)


def on_term(signum, frame) -> None:
    torch.save(model.state_dict(), "/tmp/sd_preempt.pt")
    print(f"caught signal {signum}: checkpoint saved, exiting", file=sys.stderr, flush=True)
    sys.exit(128 + signum)


def main() -> None:
    signal.signal(signal.SIGTERM, on_term)
    subprocess.Popen(["sh", "-c", f"sleep 1; kill -TERM {os.getpid()}"])
    for _step in range(100):
        model(torch.randn(2, 4)).sum().backward()
        time.sleep(0.1)
    print("training done", flush=True)
