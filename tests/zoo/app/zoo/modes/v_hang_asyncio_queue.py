"""An asyncio loader: a producer task reads records into an asyncio.Queue, the consumer awaits queue.get() for
each expected record; the producer task dies on a bad record (KeyError), its exception kept in the task, never
awaited, so nothing is printed and the consumer awaits forever."""

import asyncio

RECORDS = [{"x": 1}, {"x": 2}, {"y": 3}, {"x": 4}]


async def produce(queue: asyncio.Queue) -> None:
    for record in RECORDS:
        await queue.put(record["x"])


async def consume() -> int:
    queue: asyncio.Queue = asyncio.Queue()
    producer = asyncio.create_task(produce(queue))
    total = 0
    for _ in range(len(RECORDS)):
        total += await queue.get()
    await producer
    return total


def main() -> None:
    print(asyncio.run(consume()))
