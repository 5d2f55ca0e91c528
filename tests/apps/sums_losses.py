"""A training loop that sums its losses for a running mean, by its own keys (key=value):

- keep_graph=true: `total = total + loss`, the loss tensor itself, so `total` holds the autograd graph of
  every step, and with it every activation the forward saved for backward (the [4, 65536] float32 output of
  the ReLU, 1 MiB a step); keep_graph=false: `total += loss.item()`, a float, and nothing is kept;
- steps: batches, one pass (default STEPS), in the main process (no workers);
- device: where the model and its batches are (default cpu; cuda on a GPU: scripts/gpu_check.sh);
- report=true: print the process's RSS at step 20 and at the last step.

The truth, measured alone (`python sums_losses.py keep_graph=... steps=100 report=true`, with
MALLOC_MMAP_THRESHOLD_=131072 as the tests run it): keep_graph=true grows 1.00 MiB a step from step 20 to
100 (no Python reference to the activations but the graph's); keep_graph=false by under 0.1 MiB in all.
Nothing here calls backward: a loop that does (`total.backward()` once at the end) keeps the same graphs
until it does.
"""

import os
import sys

import torch
from torch.utils.data import DataLoader, TensorDataset

STEPS = 60
BATCH = 4
HIDDEN = 65536  # BATCH x HIDDEN float32 = 1 MiB of activations saved a step


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main(args: dict) -> None:
    steps = int(args.get("steps", STEPS))
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(steps * BATCH, 64))
    device = torch.device(args.get("device", "cpu"))
    model = torch.nn.Sequential(torch.nn.Linear(64, HIDDEN), torch.nn.ReLU(), torch.nn.Linear(HIDDEN, 1))
    model = model.to(device)
    total = 0.0
    for step, (x,) in enumerate(DataLoader(data, batch_size=BATCH), start=1):
        loss = model(x.to(device)).pow(2).mean()
        if args.get("keep_graph") == "true":
            total = total + loss
        else:
            total += loss.item()
        if args.get("report") == "true" and step in (20, steps):
            print(f"step {step}: {rss_mb():.1f} MiB", flush=True)
    print(f"mean loss {(total.item() if torch.is_tensor(total) else total) / steps:.4f}")


if __name__ == "__main__":
    main(dict(arg.split("=", 1) for arg in sys.argv[1:]))
