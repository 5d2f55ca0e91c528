"""A search that runs its trials in a thread pool and collects every failure before failing at the end (so
one bad trial does not cost the others); the sampler draws momentum from a grid that includes 0 while the
optimizer is built with `nesterov=True`, and torch.optim.SGD refuses it in that trial's thread."""

import traceback
from concurrent.futures import ThreadPoolExecutor

import torch
from torch import nn

GRID = [{"lr": 0.1, "momentum": 0.9}, {"lr": 0.05, "momentum": 0.0}, {"lr": 0.01, "momentum": 0.5}]


def objective(number: int, params: dict) -> float:
    torch.manual_seed(number)
    model = nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=params["lr"], momentum=params["momentum"], nesterov=True)
    x = torch.randn(64, 8)
    for _ in range(20):
        loss = (model(x) - x.sum(1, keepdim=True)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


def main() -> None:
    failed = []
    with ThreadPoolExecutor(2, thread_name_prefix="trial") as ex:
        futures = {ex.submit(objective, n, p): n for n, p in enumerate(GRID)}
        for future, number in futures.items():
            try:
                print(f"trial {number}: loss {future.result():.4f}", flush=True)
            except Exception:
                print(f"trial {number} failed:", flush=True)
                traceback.print_exc()
                failed.append(number)
    if failed:
        raise SystemExit(f"{len(failed)} of {len(GRID)} trials failed: {failed}")
