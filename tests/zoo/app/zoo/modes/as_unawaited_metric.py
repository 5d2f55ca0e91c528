"""Validation accuracy computed by an `async def` (it was made async to await a remote scorer); the
best-checkpoint logic still calls it like a function. It gets a coroutine, never awaited, and compares it with
the best float so far: TypeError in the program's own comparison (and Python's 'never awaited' warning)."""

import asyncio

import torch


async def accuracy(model, x, y) -> float:
    await asyncio.sleep(0)  # the remote scorer
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(64, 8), torch.randint(0, 2, (64,))
    best = 0.0
    for epoch in range(3):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        acc = accuracy(model, x, y)
        print(f"epoch {epoch}: loss {loss.item():.4f}", flush=True)
        if acc > best:
            best = acc
            torch.save(model.state_dict(), "/dev/null")
