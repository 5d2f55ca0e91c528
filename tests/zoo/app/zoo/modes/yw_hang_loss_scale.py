"""The program's own dynamic loss scaler retries a step until its gradients are finite: a NaN from the data never is.

Its scaler halves the scale and recomputes the step while any gradient is inf or NaN (fp16-style overflow
handling). Batch 2 holds a negative reading whose sqrt is NaN: no scale makes that finite, and the scale bottoms
out at its floor, so the loop retries for ever, printing nothing after its first notice.
"""

import time

import torch


def step_until_finite(model, x, y, scale: float) -> float:
    while True:
        model.zero_grad()
        loss = torch.nn.functional.mse_loss(model(torch.sqrt(x)), y)
        (loss * scale).backward()
        if all(torch.isfinite(p.grad).all() for p in model.parameters()):
            for p in model.parameters():
                p.grad /= scale
            return scale
        scale = max(scale / 2, 1.0)
        time.sleep(0.05)  # back off before the retry


def main() -> None:
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    g = torch.Generator().manual_seed(0)
    scale = 2.0**16
    for step in range(5):
        x = torch.rand(16, 4, generator=g)
        if step == 2:
            x[7, 1] = -0.25  # a calibration offset left negative
            print("step 2: non-finite gradients, reducing the loss scale", flush=True)
        y = x.sum(1, keepdim=True)
        scale = step_until_finite(model, x, y, scale)
        opt.step()
        print(f"step {step} scale {scale:.0f}", flush=True)
