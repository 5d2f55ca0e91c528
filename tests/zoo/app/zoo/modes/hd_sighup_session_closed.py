"""A training run started from an interactive session without nohup: the session's end (here its stand-in, a
child shell started after the third step, sends SIGHUP to the trainer a second later, as a scheduler or sshd does when the session closes).
The program installs no handler, so SIGHUP's default action ends it in the middle of the loop."""

import os
import subprocess
import time

import torch


def main() -> None:
    model = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(40):
        loss = model(torch.randn(16, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
        if step == 2:
            subprocess.Popen(["sh", "-c", f"sleep 1; kill -HUP {os.getpid()}"])
        time.sleep(0.1)
