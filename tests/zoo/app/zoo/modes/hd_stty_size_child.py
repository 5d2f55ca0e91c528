"""The log's column width read from the terminal by asking `stty size` in a child process (check_output), as a
shell script would. In a batch job stdin is no terminal: stty prints `standard input: Inappropriate ioctl for
device` and exits 1, and check_output raises in the main."""

import subprocess

import torch


def terminal_columns() -> int:
    rows, columns = subprocess.check_output(["stty", "size"], text=True).split()
    return int(columns)


def main() -> None:
    model = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _step in range(3):
        loss = model(torch.randn(16, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    width = terminal_columns()
    print("=" * width, flush=True)
    print(f"loss {loss.item():.4f}", flush=True)
