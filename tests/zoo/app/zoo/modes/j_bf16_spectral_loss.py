"""A vocoder-style model run under CPU bf16 autocast, its loss computed after the autocast block (as the
autocast recipe says: the forward inside, the loss outside). The output stays bf16; the time-domain L1 takes it
(type promotion with the float32 target), the spectral term added from step 2 on, after a warm-up, gives it to
`torch.fft.rfft` outside autocast, where no cast to float32 happens."""

import torch
import torch.nn.functional as F


def spectral_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return (torch.fft.rfft(pred).abs() - torch.fft.rfft(target).abs()).abs().mean()


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.Tanh(), torch.nn.Linear(256, 256))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(6):
        mel, wave = torch.randn(8, 64), torch.randn(8, 256)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            pred = model(mel)
        loss = F.l1_loss(pred, wave)
        if step >= 2:
            loss = loss + spectral_loss(pred, wave)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {float(loss):.4f}", flush=True)
