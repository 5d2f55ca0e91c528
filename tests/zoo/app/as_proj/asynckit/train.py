"""The trainer: a linear classifier over 8 features, its data through asynckit's loaders."""

import asyncio

import torch

from asynckit import loop as aloop
from asynckit import prefetch


def model_and_opt():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2))
    return model, torch.optim.SGD(model.parameters(), lr=0.1)


def step(model, opt, x, y) -> float:
    loss = torch.nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def fit_prefetch(epochs: int = 2) -> None:
    root = prefetch.write_shards(3)
    model, opt = model_and_opt()
    pre = prefetch.Prefetcher(root, 3)
    for epoch in range(epochs):
        for shard in pre.epoch():
            loss = step(model, opt, shard["x"], shard["y"])
        print(f"epoch {epoch}: loss {loss:.4f}", flush=True)


def fit_executor_shards() -> None:
    root = prefetch.write_shards(4, plain=2)
    model, opt = model_and_opt()
    shards = asyncio.run(prefetch.aload_shards(root, 4))
    for shard in shards:
        print(f"loss {step(model, opt, shard['x'], shard['y']):.4f}", flush=True)


async def fit_async() -> None:
    """The training loop as a coroutine (it awaits the data service); evaluation through a shared helper."""
    model, opt = model_and_opt()
    x, y = torch.randn(64, 8), torch.randint(0, 2, (64,))
    for epoch in range(2):
        await asyncio.sleep(0)  # the data service
        loss = step(model, opt, x, y)
        acc = aloop.run_sync(aloop.evaluate(model, x, y))
        print(f"epoch {epoch}: loss {loss:.4f} acc {acc:.3f}", flush=True)


def fit_remote(workers: int = 2) -> None:
    ds = aloop.RemoteShards(32)
    asyncio.run(ds.connect())
    print("store connected", flush=True)
    loader = torch.utils.data.DataLoader(ds, batch_size=8, num_workers=workers)
    model, opt = model_and_opt()
    for x, y in loader:
        print(f"loss {step(model, opt, x, y):.4f}", flush=True)
