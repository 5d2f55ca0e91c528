"""An async training loop that bounds each step with `asyncio.wait_for(step(), timeout=0.3)`; the step awaits
a metrics upload after the optimizer's update. At step 3 the upload is slow: wait_for cancels the step mid-way
(after its update) and raises TimeoutError in the loop."""

import asyncio

import torch


async def upload(step: int, loss: float) -> None:
    await asyncio.sleep(1.0 if step == 3 else 0.02)  # the tracking server stalls once


async def train_step(model, opt, step: int) -> float:
    g = torch.Generator().manual_seed(step)
    x, y = torch.randn(32, 8, generator=g), torch.randint(0, 2, (32,), generator=g)
    loss = torch.nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    await upload(step, loss.item())
    return loss.item()


async def fit() -> None:
    model = torch.nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(6):
        loss = await asyncio.wait_for(train_step(model, opt, step), timeout=0.3)
        print(f"step {step}: loss {loss:.4f}", flush=True)


def main() -> None:
    asyncio.run(fit())
