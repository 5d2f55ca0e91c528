"""The training loop: a small regression model over a synthetic dataset."""

import time

import torch
from torch.utils.data import DataLoader, Dataset

from sigkit import handlers


class Frames(Dataset):
    def __init__(self, n: int, delay: float = 0.0) -> None:
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(n, 16, generator=g)
        self.y = torch.randn(n, 4, generator=g)
        self.delay = delay

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int):
        if self.delay:
            time.sleep(self.delay)
        return self.x[i], self.y[i]


def make_model() -> torch.nn.Module:
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))


def fit(state: dict, steps: int, pause: float = 0.0, on_start=None) -> float:
    model = make_model()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    loader = DataLoader(Frames(256), batch_size=16, shuffle=True)
    loss = torch.tensor(0.0)
    step = 0
    while step < steps:
        for x, y in loader:
            loss = torch.nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            state.update(step=step, ckpt={"model": model.state_dict(), "step": step})
            if step % 5 == 0:
                print(f"step {step} loss {loss.item():.4f}", flush=True)
            if step == 0 and on_start is not None:
                on_start()
            step += 1
            time.sleep(pause)
            if step >= steps:
                break
    return loss.item()


def fit_budgeted(steps: int, budget: float) -> None:
    model = make_model()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    loader = DataLoader(Frames(64, delay=0.1), batch_size=8, num_workers=2)
    handlers.install_step_budget(budget)
    it = iter(loader)
    for step in range(steps):
        handlers.arm(budget)
        x, y = next(it)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        handlers.arm(0)
        print(f"step {step} loss {loss.item():.4f}", flush=True)


def evaluate_heads(model: torch.nn.Module) -> torch.Tensor:
    x = torch.randn(32, 16)
    per_head = [model(x).mean(0), model[0](x).mean()]
    return torch.cat(per_head)
