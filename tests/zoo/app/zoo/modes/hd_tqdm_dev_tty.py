"""A progress bar kept out of the log file: tqdm is given `file=open("/dev/tty", "w")`, the controlling terminal,
so that only the epoch lines reach stdout. A batch job has no controlling terminal, and the open fails before the
first epoch."""

import torch
from tqdm import tqdm


def main() -> None:
    model = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    print("training 2 epochs of 16 steps", flush=True)
    for epoch in range(2):
        bar = tqdm(range(16), desc=f"epoch {epoch}", file=open("/dev/tty", "w"))
        for _ in bar:
            loss = model(torch.randn(16, 8)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            bar.set_postfix(loss=f"{loss.item():.4f}")
        print(f"epoch {epoch} loss {loss.item():.4f}", flush=True)
