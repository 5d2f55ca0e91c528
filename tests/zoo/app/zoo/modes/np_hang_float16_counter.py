"""An epoch loop that counts the samples it has seen in a float16 numpy scalar (kept beside fp16 statistics):
float16 cannot hold 2049, so `seen += 1` stops at 2048 and `while seen < 5000` never ends; nothing raises."""

import numpy as np
import torch


def main() -> None:
    data = torch.randn(5000, 4)
    seen, total = np.float16(0), np.float16(0)
    print(f"epoch 0: {len(data)} samples", flush=True)
    while seen < len(data):
        total += np.float16(data[int(seen)].sum().item())
        seen += np.float16(1)
    print(f"epoch 0 done: mean {total / seen}", flush=True)
