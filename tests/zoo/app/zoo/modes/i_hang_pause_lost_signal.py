"""The trainer starts a preprocessing child (a shell step) that tells it "data ready" with SIGUSR1 when
done, builds its model meanwhile, then waits for the signal with signal.pause(). The child is quick: its signal
arrives (and the handler runs) while the model is being built, and pause() then waits for a signal that never
comes."""

import signal
import subprocess
import time

import torch

CHILD = "sleep 0.2; kill -USR1 $PPID"
ready = []


def on_ready(signum, frame) -> None:
    ready.append(signum)


def main() -> None:
    signal.signal(signal.SIGUSR1, on_ready)
    prep = subprocess.Popen(["bash", "-c", CHILD])
    model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 4))
    time.sleep(3)
    print(f"model built ({sum(p.numel() for p in model.parameters())} parameters); waiting for the data", flush=True)
    signal.pause()
    prep.wait()
    print("data ready, training", flush=True)
