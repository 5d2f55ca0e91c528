"""The main waits with run_until_complete for a future that a download callback resolves; the callback is
scheduled on the loop a helper returns, and the helper makes a new loop on each call, so the callback sits on
a loop nobody runs and the future is never resolved."""

import asyncio


def get_loop() -> asyncio.AbstractEventLoop:
    return asyncio.new_event_loop()


def fetch_index(fut: asyncio.Future) -> None:
    get_loop().call_later(0.1, fut.set_result, ["shard-0", "shard-1"])


def main() -> None:
    loop = get_loop()
    fut = loop.create_future()
    fetch_index(fut)
    shards = loop.run_until_complete(fut)
    print(f"{len(shards)} shards")
