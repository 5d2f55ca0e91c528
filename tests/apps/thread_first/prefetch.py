"""A loader that prefetches a statistic in a background thread, handed an empty shard: the thread dies of
ZeroDivisionError, and the main then fails on the value the thread never wrote (KeyError)."""

import sys
import threading

stats: dict = {}


def prefetch(values):
    stats["mean"] = sum(values) / len(values)


def main():
    shard = [] if "shard=empty" in sys.argv[1:] else [1.0, 2.0]
    worker = threading.Thread(target=prefetch, args=(shard,), name="Thread-1 (prefetch)")
    worker.start()
    worker.join()
    print("mean", stats["mean"])


if __name__ == "__main__":
    main()
