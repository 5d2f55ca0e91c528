"""A preemption handler, as Slurm jobs install for `--signal=USR1@90`: on SIGUSR1 it saves a checkpoint. The
checkpoint folder is a str from the config; the handler joins it with `/` as if it were a Path. Here the
scheduler's warning is a child shell that sends SIGUSR1 after a second of training."""

import os
import signal
import subprocess
import time

import torch

CKPT_DIR = os.environ.get("CKPT_DIR", "checkpoints")
STATE: dict = {}


def on_preempt(signum, frame) -> None:
    print(f"got signal {signum}: saving a checkpoint", flush=True)
    torch.save(STATE, CKPT_DIR / "preempt.pt")


def main() -> None:
    torch.manual_seed(0)
    signal.signal(signal.SIGUSR1, on_preempt)
    subprocess.Popen(["sh", "-c", f"sleep 1; kill -USR1 {os.getpid()}"])
    model = torch.nn.Linear(16, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(40):
        loss = model(torch.randn(32, 16)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        STATE.update(model=model.state_dict(), step=step)
        if step % 10 == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.1)
    print("done", flush=True)
