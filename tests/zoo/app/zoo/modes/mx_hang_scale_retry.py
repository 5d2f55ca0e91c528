"""A hand-written dynamic loss scaler in a float16 model on the CPU: on a non-finite loss it halves the scale and
retries the same batch. The overflow is in the forward (activations above float16's range), which the scale
does not touch, so it retries for ever."""

import time

import torch


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1)).half()
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    scale = 2.0**16
    x = (torch.randn(64, 8) * 3000).half()  # raw sensor counts, not normalised
    retries = 0
    while True:
        loss = model(x).pow(2).mean()
        scaled = loss * scale
        if torch.isfinite(scaled):
            break
        scale = max(scale / 2, 1.0)
        retries += 1
        if retries == 20:
            print(f"overflow: retrying the batch with loss scale {scale}", flush=True)
        time.sleep(0.05)
    opt.zero_grad()
    scaled.backward()
    opt.step()
    print("step done")
