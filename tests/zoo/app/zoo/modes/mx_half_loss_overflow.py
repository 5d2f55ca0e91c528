"""A model kept in float16 on the CPU to save memory; a sum-of-squares loss of unnormalised targets overflows
float16 (above 65504) to inf, and the program's own non-finite check raises."""

import torch


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1)).half()
    opt = torch.optim.SGD(model.parameters(), lr=1e-4)
    for step in range(5):
        x = torch.randn(256, 8).half()
        target = (x.float().sum(1, keepdim=True) * (30.0 * (step + 1))).half()  # prices in cents, unnormalised
        loss = (model(x) - target).pow(2).sum()
        if not torch.isfinite(loss):
            raise FloatingPointError(f"loss is {loss.item()} at step {step} (dtype {loss.dtype})")
        print(f"step {step} loss {loss.item():.1f}", flush=True)
        opt.zero_grad()
        loss.backward()
        opt.step()
