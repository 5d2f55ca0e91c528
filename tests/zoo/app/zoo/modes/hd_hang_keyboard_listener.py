"""An interactive step mode: a listener child process reads the user's keys from stdin and puts each command on a
queue; after every epoch the main waits for one (`c` to continue, `q` to stop). In a batch job stdin is empty: the
listener reads EOF and ends without putting anything, and the main waits on the queue for ever."""

import multiprocessing as mp
import os
import sys

import torch


def listen(commands, fd: int) -> None:
    with os.fdopen(fd) as keys:
        for line in keys:
            commands.put(line.strip())


def main() -> None:
    commands = mp.get_context("fork").Queue()
    stdin_fd = os.dup(sys.stdin.fileno()) if sys.stdin is not None else os.open(os.devnull, os.O_RDONLY)
    listener = mp.get_context("fork").Process(target=listen, args=(commands, stdin_fd), daemon=True)
    listener.start()
    model = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        loss = model(torch.randn(32, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}; waiting for a command (c/q)", flush=True)
        if commands.get() == "q":
            break
