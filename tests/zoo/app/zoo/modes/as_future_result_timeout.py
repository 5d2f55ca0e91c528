"""Feature batches prefetched by a one-thread ThreadPoolExecutor; the main waits for each with
`future.result(timeout=0.5)` so a stalled disk cannot stall training. Batch 3 sits on a slow network share
(2 s): concurrent.futures raises TimeoutError in the main; the loader thread itself never failed."""

import time
from concurrent.futures import ThreadPoolExecutor

import torch


def load(i: int) -> tuple[torch.Tensor, torch.Tensor]:
    time.sleep(2.0 if i == 3 else 0.05)  # batch 3 lives on the slow share
    g = torch.Generator().manual_seed(i)
    return torch.randn(32, 8, generator=g), torch.randint(0, 2, (32,), generator=g)


def main() -> None:
    model = torch.nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="loader")
    fut = pool.submit(load, 0)
    for i in range(6):
        x, y = fut.result(timeout=0.5)
        fut = pool.submit(load, i + 1)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {i}: loss {loss.item():.4f}", flush=True)
