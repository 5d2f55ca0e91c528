"""The training loop: a small regression model, a run folder, and the interactive touches of each case."""

import os
import sys
import tempfile
import warnings

import torch

from batchkit import plots, prompts

RUNS = os.path.join(tempfile.gettempdir(), "batchkit_runs")


def progress_line(epoch: int, step: int, steps: int, loss: float) -> str:
    columns = os.get_terminal_size().columns
    bar = int((columns - 40) * (step + 1) / steps)
    return f"\repoch {epoch} [{'=' * bar:<{columns - 40}}] loss {loss:.4f}"


def make_run_dir(case: str) -> str:
    run_dir = os.path.join(RUNS, case)
    os.makedirs(run_dir, exist_ok=True)
    with open(os.path.join(run_dir, "last.pt"), "wb") as f:
        torch.save({"epoch": -1}, f)
    if case == "hd_confirm_overwrite" and os.listdir(run_dir):
        if not prompts.confirm(f"{run_dir} holds a checkpoint: overwrite it?"):
            sys.exit("not overwriting")
    return run_dir


def run(case: str, epochs: int) -> None:
    if case == "hd_token_getpass":
        warnings.simplefilter("error")
    torch.manual_seed(0)
    run_dir = make_run_dir(case)
    print(f"batchkit: case {case}, run folder {run_dir}", flush=True)
    token = prompts.tracker_token() if case == "hd_token_getpass" else None
    window = plots.LossWindow(f"batchkit {case}") if case == "hd_display_unset" else None
    x = torch.randn(256, 8)
    y = x @ torch.randn(8, 1) + 0.1 * torch.randn(256, 1)
    model = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    losses = []
    for epoch in range(epochs):
        steps = 8
        for step in range(steps):
            xb, yb = x[step * 32 : (step + 1) * 32], y[step * 32 : (step + 1) * 32]
            loss = torch.nn.functional.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if case == "hd_terminal_size":
                sys.stdout.write(progress_line(epoch, step, steps, loss.item()))
        losses.append(loss.item())
        print(f"epoch {epoch} loss {loss.item():.4f}", flush=True)
        if window is not None:
            window.draw(losses)
    torch.save(model.state_dict(), os.path.join(run_dir, "last.pt"))
    if token:
        print("would upload the run to the tracker", flush=True)
    print("done", flush=True)
