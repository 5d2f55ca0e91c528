"""A warm-up from a learning rate of zero, written as `LinearLR(start_factor=0.0)` chained before a cosine decay
with SequentialLR; the schedule is built after the first epoch's lr range test, when the chosen lr is known."""

import torch
import torch.nn.functional as F
from torch.optim.lr_scheduler import CosineAnnealingLR, LinearLR, SequentialLR


def range_test(model: torch.nn.Module, x: torch.Tensor, y: torch.Tensor) -> float:
    best, best_lr = float("inf"), 1e-3
    for lr in (1e-3, 1e-2, 1e-1):
        opt = torch.optim.SGD(model.parameters(), lr=lr)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if float(loss) < best:
            best, best_lr = float(loss), lr
    return best_lr


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 3)
    x, y = torch.randn(64, 8), torch.randint(0, 3, (64,))
    lr = range_test(model, x, y)
    print(f"lr range test chose {lr}", flush=True)
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    warmup = LinearLR(opt, start_factor=0.0, end_factor=1.0, total_iters=5)
    decay = CosineAnnealingLR(opt, T_max=20)
    sched = SequentialLR(opt, [warmup, decay], milestones=[5])
    for _step in range(25):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
    print(f"final loss {float(loss):.4f}", flush=True)
