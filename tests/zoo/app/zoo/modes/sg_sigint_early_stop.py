"""An early-stopping check that stops "as Ctrl-C would", so the trainer's interrupt path saves and exits: it
sends SIGINT to its own process once the validation loss stops falling. Nothing catches the KeyboardInterrupt; it
escapes main, Python prints it and ends the process by SIGINT."""

import os
import signal

import torch


def should_stop(history: list, patience: int = 2) -> bool:
    return len(history) > patience and min(history[-patience:]) >= min(history[:-patience])


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Linear(16, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    x_val, y_val = torch.randn(64, 16), torch.randn(64, 4)
    history: list = []
    for epoch in range(50):
        for _ in range(4):
            x, y = torch.randn(32, 16), torch.randn(32, 4)
            loss = torch.nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            history.append(torch.nn.functional.mse_loss(model(x_val), y_val).item())
        print(f"epoch {epoch} val {history[-1]:.4f}", flush=True)
        if should_stop(history):
            print("early stop: interrupting", flush=True)
            os.kill(os.getpid(), signal.SIGINT)
    print("done", flush=True)
