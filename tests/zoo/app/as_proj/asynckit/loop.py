"""Helpers that bridge the trainer's synchronous loop and asyncio code."""

import asyncio

import torch


def run_sync(coro):
    """A notebook-style helper: run a coroutine to completion from synchronous code."""
    return asyncio.run(coro)


async def evaluate(model, x, y) -> float:
    await asyncio.sleep(0.01)  # the evaluation service's latency
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


class RemoteShards(torch.utils.data.Dataset):
    """Samples fetched through an asyncio client; the client waits until the store says it is ready."""

    def __init__(self, n: int):
        self.n = n
        self.data = torch.randn(n, 8)
        self.ready = asyncio.Event()

    async def _mark_ready(self):
        await asyncio.sleep(0.05)
        self.ready.set()

    async def connect(self):
        asyncio.get_running_loop().create_task(self._mark_ready())
        await self.ready.wait()
        self.ready.clear()  # each fetch waits for the store's next ready signal

    async def _fetch(self, i: int):
        asyncio.get_running_loop().call_later(0.01, self.ready.set)
        await self.ready.wait()
        return self.data[i]

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return asyncio.run(self._fetch(i)), i % 2
