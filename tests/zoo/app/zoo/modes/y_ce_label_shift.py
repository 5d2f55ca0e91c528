"""Labels read 1-based (1..10) for a 10-class head: label 10 is past the last class, and CUDA's nll_loss
kernel asserts; the host hears of it later (modelscope/ms-swift#3267, pytorch/PiPPy#259)."""

import torch
import torch.nn.functional as F

from zoo.data import quiet_torch


def train_step(model, opt, x, y):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


def main() -> None:
    quiet_torch()
    torch.manual_seed(0)
    model = torch.nn.Linear(32, 10).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(256, 32, device="cuda")
    y = torch.randint(1, 11, (256,), device="cuda")  # the bug: the annotation file's labels are 1..10
    for step in range(20):
        loss = train_step(model, opt, x, y)
        if step % 5 == 0:
            print(f"step {step} loss {loss.item():.3f}")
