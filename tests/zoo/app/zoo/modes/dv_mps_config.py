"""A config written on a Mac (`device: mps`) run on this Linux box: the program trusts the string and makes its
buffers on it; this torch has no MPS backend."""

import torch

CONFIG = {"device": "mps", "batch": 8, "dim": 4}


def main() -> None:
    device = torch.device(CONFIG["device"])
    print(f"training on {device}", flush=True)
    running_mean = torch.zeros(CONFIG["dim"], device=device)
    for step in range(3):
        x = torch.randn(CONFIG["batch"], CONFIG["dim"]).to(device)
        running_mean = 0.9 * running_mean + 0.1 * x.mean(0)
        print(f"step {step}", flush=True)
