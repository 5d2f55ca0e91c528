"""An asyncio consumer fed by a producer thread through `loop.call_soon_threadsafe(queue.put_nowait, batch)`.
The first epoch's `asyncio.run` ends (and closes its loop) as soon as it has the batches it wants; the producer
thread keeps going with the old loop. Its next call_soon_threadsafe raises `RuntimeError: Event loop is
closed` in the producer thread; the main re-raises it from the producer's future."""

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import torch


def produce(loop, queue, n: int) -> int:
    for _ in range(n):
        time.sleep(0.05)  # decoding
        loop.call_soon_threadsafe(queue.put_nowait, torch.randn(16, 8))
    return n


async def epoch(pool, model, n_steps: int):
    loop, queue = asyncio.get_running_loop(), asyncio.Queue()
    fut = pool.submit(produce, loop, queue, 8)  # the producer decodes a whole shard
    for _ in range(n_steps):
        x = await queue.get()
        model(x).sum().backward()
    return fut


def main() -> None:
    model = torch.nn.Linear(8, 2)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="producer") as pool:
        fut = asyncio.run(epoch(pool, model, 3))
        print("epoch 0 done", flush=True)
        print(f"producer made {fut.result()} batches", flush=True)
