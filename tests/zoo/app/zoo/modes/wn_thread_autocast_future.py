"""FutureWarnings made errors (`warnings.filterwarnings("error", category=FutureWarning)`, to find deprecated
calls before an upgrade); the evaluation runs in a ThreadPoolExecutor thread under the deprecated
`torch.cpu.amp.autocast()`. The thread raises torch's FutureWarning; the main re-raises it from `result()`."""

import warnings
from concurrent.futures import ThreadPoolExecutor

import torch
from torch import nn


def evaluate(model: nn.Module, x: torch.Tensor) -> float:
    with torch.no_grad(), torch.cpu.amp.autocast(dtype=torch.bfloat16):
        return model(x).float().mean().item()


def main() -> None:
    warnings.filterwarnings("error", category=FutureWarning)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="eval") as pool:
        for epoch in range(2):
            x = torch.randn(64, 16)
            loss = model(x).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(f"epoch {epoch} loss {loss.item():.4f}", flush=True)
            future = pool.submit(evaluate, model, torch.randn(32, 16))
            print(f"epoch {epoch} eval {future.result():.4f}", flush=True)
