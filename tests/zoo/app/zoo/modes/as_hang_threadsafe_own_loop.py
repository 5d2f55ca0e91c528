"""The training loop runs as a coroutine on an asyncio loop; a synchronous helper deep in the data code fetches
the next shard with `asyncio.run_coroutine_threadsafe(fetch(), loop).result()`, the pattern for calling into a
loop from another thread. Here it is called from the loop's own thread: the loop cannot run fetch() while it
waits in result(), and no timeout is given. Prints `fetching shard 1`, then frozen."""

import asyncio

import torch

LOOP = None


async def fetch(i: int) -> torch.Tensor:
    await asyncio.sleep(0.01)  # the object store
    return torch.randn(16, 8)


def next_shard(i: int) -> torch.Tensor:
    print(f"fetching shard {i}", flush=True)
    return asyncio.run_coroutine_threadsafe(fetch(i), LOOP).result()


async def fit() -> None:
    model = torch.nn.Linear(8, 2)
    x = await fetch(0)
    model(x).sum().backward()
    print("shard 0 trained", flush=True)
    x = next_shard(1)
    model(x).sum().backward()


def main() -> None:
    global LOOP
    LOOP = asyncio.new_event_loop()
    LOOP.run_until_complete(fit())
