"""Inference requests served by a ThreadPoolExecutor; each request's thread tunes torch's inter-op pool with
`torch.set_num_interop_threads(2)` for its own work. The first request's `torch.jit.fork` already started the
inter-op pool, so the second request's call is refused: RuntimeError raised in the worker thread, re-raised by
`future.result()` in the main."""

from concurrent.futures import ThreadPoolExecutor

import torch


def branch(m, x):
    return m(x)


def serve(model, i: int) -> float:
    torch.set_num_interop_threads(2)  # keep each request's fan-out small
    x = torch.randn(16, 8)
    futs = [torch.jit.fork(branch, model, x) for _ in range(2)]
    return sum(torch.jit.wait(f).sum().item() for f in futs)


def main() -> None:
    model = torch.nn.Linear(8, 4)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="serve") as pool:
        for i in range(3):
            out = pool.submit(serve, model, i).result()
            print(f"request {i}: {out:.3f}", flush=True)
