"""Progress lines sent through `head -n 3` (the program keeps the console short by printing into a head child
it starts itself: sys.stdout replaced by the child's stdin). Python ignores SIGPIPE, so once head has read its
3 lines and exited, the next print raises BrokenPipeError."""

import subprocess
import sys
import time

import torch


def main() -> None:
    torch.manual_seed(0)
    head = subprocess.Popen(["head", "-n", "3"], stdin=subprocess.PIPE, text=True)
    sys.stdout = head.stdin
    model = torch.nn.Linear(16, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(20):
        loss = model(torch.randn(32, 16)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.1)
