"""A training dashboard drawn with curses (loss and step on a full screen), started before the loop. In a batch
job TERM is empty (the scheduler's environment has no terminal type), and curses.initscr() cannot set up the
terminal."""

import curses

import torch


def main() -> None:
    model = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    print("starting the dashboard", flush=True)
    screen = curses.initscr()
    try:
        for step in range(20):
            x = torch.randn(16, 8)
            loss = model(x).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            screen.addstr(0, 0, f"step {step:3d}  loss {loss.item():.4f}")
            screen.refresh()
    finally:
        curses.endwin()
