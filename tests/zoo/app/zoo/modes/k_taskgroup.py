"""asyncio.TaskGroup: one download task raises, the group cancels the others and raises an ExceptionGroup."""

import asyncio


async def fetch(name: str) -> bytes:
    await asyncio.sleep(0)
    if name == "shard-2":
        raise ConnectionError(f"{name}: server closed the connection")
    return name.encode()


async def fetch_all() -> None:
    async with asyncio.TaskGroup() as tg:
        for i in range(4):
            tg.create_task(fetch(f"shard-{i}"))


def main() -> None:
    asyncio.run(fetch_all())
