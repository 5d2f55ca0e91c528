"""Loader threads meet at a threading.Barrier sized for the configured number of loaders (3) before each epoch;
only 2 are started (the third is skipped when its shard list is empty), so both wait at the barrier forever
and the main waits in join()."""

import threading

SHARDS = [["a-0", "a-1"], ["b-0"], []]


def loader(shards: list, ready: threading.Barrier, out: list) -> None:
    ready.wait()
    out.extend(shards)


def main() -> None:
    ready = threading.Barrier(len(SHARDS))
    out: list = []
    threads = [threading.Thread(target=loader, args=(s, ready, out)) for s in SHARDS if s]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(out)
