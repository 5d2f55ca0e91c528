"""Saved activations offloaded through a one-thread I/O executor (pack submits the copy, unpack waits for it),
and the training step itself submitted to the same executor so the main can prefetch meanwhile: in the backward,
unpack waits for a copy queued behind the step that is waiting for it; the main waits for the step. No timeout."""

from concurrent.futures import ThreadPoolExecutor

import torch

IO = ThreadPoolExecutor(max_workers=1, thread_name_prefix="io")


def pack(t: torch.Tensor):
    return IO.submit(t.clone)


def unpack(fut) -> torch.Tensor:
    return fut.result()


def step(model: torch.nn.Module, opt: torch.optim.Optimizer, x: torch.Tensor, y: torch.Tensor) -> float:
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        loss = torch.nn.functional.mse_loss(model(x), y)
    print("forward done, backward", flush=True)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.Tanh(), torch.nn.Linear(64, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for i in range(3):
        fut = IO.submit(step, model, opt, torch.randn(16, 32), torch.randn(16, 1))
        print(f"step {i} submitted, prefetching", flush=True)
        print(f"step {i} loss {fut.result():.4f}", flush=True)
